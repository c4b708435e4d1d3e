'use strict';
// Preloaded (`node --require`) into a CLI run by `cargo xtask bench`: at exit, the process's peak resident
// memory (KiB) on stderr's last line, so that the CLI is measured as a pipeline runs it (a fresh process).
// Read from /proc/self/status (VmHWM: this process's own high-water mark), not getrusage's maxRSS: Linux
// carries the parent's peak into a child's maxRSS across exec, so a bench process that has read a large
// file made every CLI after it look as large (1,308 MB reported for a run whose own peak was 543 MB).
process.on('exit', () => {
  const fs = require('node:fs');
  let kib = null;
  try {
    const m = fs.readFileSync('/proc/self/status', 'utf8').match(/^VmHWM:\s+(\d+) kB$/m);
    if (m) kib = Number(m[1]);
  } catch {
    // Not Linux: getrusage's figure, which may include the parent's.
  }
  fs.writeSync(2, `\nbench-max-rss-kib ${kib ?? process.resourceUsage().maxRSS}\n`);
});
