#!/usr/bin/env bash
# The check step of the GitHub Action (../action.yml). Its inputs arrive as KP_* environment variables
# (never spliced into the script, so no input can run as code); it runs the npm package's CLI once, writes
# the SARIF, JSON and Markdown reports, and sets the step's outputs. It always exits 0: the action's last
# step fails the job by `exit-code`, after the SARIF upload.
set -uo pipefail

args=(check)
while IFS= read -r p || [ -n "$p" ]; do
  p="${p#"${p%%[![:space:]]*}"}"
  p="${p%"${p##*[![:space:]]}"}"
  if [ -n "$p" ]; then args+=("$p"); fi
done <<< "${KP_PATHS:-}"
if [ "${#args[@]}" -eq 1 ]; then
  echo "kube-preflight: the input 'paths' names no file or folder" >&2
  echo "exit-code=2" >> "$GITHUB_OUTPUT"
  exit 0
fi
for pair in "to:${KP_TO:-}" "from:${KP_FROM:-}" "profile:${KP_PROFILE:-}" "config:${KP_CONFIG:-}" "baseline:${KP_BASELINE:-}" "help-uri:${KP_HELP_URI:-}"; do
  name="${pair%%:*}"
  value="${pair#*:}"
  if [ -n "$value" ]; then args+=("--$name" "$value"); fi
done
# The package: the tarball shipped beside the action (its own checkout), a tarball in the repository, or a
# registry name or URL pinned by its integrity. Never a name from a registry unchecked: whoever owns that
# name would run inside the job.
fail() {
  echo "kube-preflight: $1" >&2
  echo "exit-code=2" >> "$GITHUB_OUTPUT"
  exit 0
}
package="${KP_PACKAGE:-}"
if [ -z "$package" ]; then
  package="${GITHUB_ACTION_PATH:-.}/kube-preflight.tgz"
  [ -f "$package" ] || fail "no package to run: copy the packed tarball (npm pack wasm-pkg/pkg) beside action.yml as kube-preflight.tgz, or give the input 'package'"
fi
if [ ! -f "$package" ]; then
  [ -n "${KP_INTEGRITY:-}" ] || fail "package '$package' is not a file here: a registry name or URL runs only with 'package-integrity' (npm pack --json states it)"
  fetched="$(mktemp -d)"
  name="$(cd "$fetched" && npm pack --silent -- "$package" 2>/dev/null | tail -n 1)" || name=""
  if [ -z "$name" ] || [ ! -f "$fetched/$name" ]; then fail "package '$package' could not be fetched"; fi
  package="$fetched/$name"
fi
if [ -n "${KP_INTEGRITY:-}" ]; then
  actual="$(node -e 'const c = require("node:crypto"); process.stdout.write("sha512-" + c.createHash("sha512").update(require("node:fs").readFileSync(process.argv[1])).digest("base64"))' "$package")"
  [ "$actual" = "$KP_INTEGRITY" ] || fail "package '$package' is not the one pinned: its integrity is $actual, not $KP_INTEGRITY"
fi
case "$package" in /*|./*|../*) ;; *) package="./$package" ;; esac

summary="$(mktemp)"
args+=(--fail-on "${KP_FAIL_ON:-blocker}" --output "sarif=${KP_SARIF:-kube-preflight.sarif}"
  --output "json=${KP_JSON:-kube-preflight.json}" --output "markdown=$summary")

npx --yes --package="$package" -- kube-preflight "${args[@]}"
code=$?
# A run that wrote no report ended before checking (npx could not install the package, say): an error,
# never "findings".
if [ ! -s "$summary" ] && [ "$code" -ne 2 ]; then
  echo "kube-preflight: no report was written (exit status $code): see the messages above" >&2
  code=2
fi
echo "exit-code=$code" >> "$GITHUB_OUTPUT"
if [ "$code" -ne 2 ]; then
  # shellcheck disable=SC2016 # JavaScript's own ${...}, not the shell's
  node -e '
    const fs = require("node:fs");
    const s = JSON.parse(fs.readFileSync(process.argv[1], "utf8")).summary;
    const suppressed = s.suppressed.blocker + s.suppressed.warning + s.suppressed.info;
    fs.appendFileSync(process.env.GITHUB_OUTPUT,
      `verdict=${s.verdict}\nblockers=${s.blocker}\nwarnings=${s.warning}\nsuppressed=${suppressed}\n`);
  ' "${KP_JSON:-kube-preflight.json}"
  if [ "${KP_SUMMARY:-true}" = true ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    cat "$summary" >> "$GITHUB_STEP_SUMMARY"
  fi
fi
rm -f "$summary"
exit 0
