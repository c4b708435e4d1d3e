'use strict';
// Preloaded (`node --require`) into a CLI run by `cargo xtask bench`: at exit, the process's peak resident
// memory (KiB) on stderr's last line, so that the CLI is measured as a pipeline runs it (a fresh process).
process.on('exit', () => {
  require('node:fs').writeSync(2, `\nbench-max-rss-kib ${process.resourceUsage().maxRSS}\n`);
});
