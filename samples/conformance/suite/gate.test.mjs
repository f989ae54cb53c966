// The 2026-07-28 gate's rules, on summaries shaped like the suite's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { evaluate, expectedFailures } from "./gate.mjs";

const SUMMARY = `=== SUMMARY ===
✗ server-stateless: 24 passed, 1 failed
✓ tools-list: 4 passed, 0 failed
✗ input-required-result-basic-sampling: 1 passed, 1 failed
✓ tasks-status-notifications: 0 passed, 0 failed
✗ tasks-lifecycle: 1 passed, 8 failed

Total: 30 passed, 10 failed

Not scored for 2026-07-28: 2 scenario(s) run, 1 failing. These do not affect conformance.
  ✓ tasks-status-notifications (extension)
  ✗ tasks-lifecycle (extension)`;

const LISTED = `# comment
server-stateless mrtr: the streaming-elicitation probe needs input-required results

input-required-result-basic-sampling mrtr: input-required results are not built
tasks-lifecycle tasks: the tasks extension is not built
`;

test("a run whose every failure is listed passes and prints the counts", () => {
  const { ok, lines } = evaluate(SUMMARY, LISTED);
  assert.equal(ok, true);
  assert.deepEqual(lines, ["conformance 2026-07-28: scored 3 (1 pass, 2 fail, 2 of them expected);"
      + " unscored 2 (1 pass, 1 fail, 1 of them expected)"]);
});

test("a scored failure that is not listed fails the run", () => {
  const { ok, lines } = evaluate(SUMMARY, LISTED.replace(/^input-required-result-basic-sampling.*$/m, ""));
  assert.equal(ok, false);
  assert.match(lines.join("\n"), /new failure: input-required-result-basic-sampling/);
});

test("an unscored failure that is not listed fails the run (a scenario that passed is held to it)", () => {
  const { ok, lines } = evaluate(SUMMARY, LISTED.replace(/^tasks-lifecycle.*$/m, ""));
  assert.equal(ok, false);
  assert.match(lines.join("\n"), /new failure: unscored tasks-lifecycle \(8 check\(s\) fail\)/);
});

test("a listed scenario that passes fails the run (the list only shrinks)", () => {
  const { ok, lines } = evaluate(SUMMARY, LISTED + "tools-list headers: listed by mistake\n");
  assert.equal(ok, false);
  assert.match(lines.join("\n"), /stale expected failure: tools-list now passes/);
});

test("a listed unscored scenario that passes fails the run", () => {
  const { ok, lines } = evaluate(SUMMARY, LISTED + "tasks-status-notifications tasks: listed by mistake\n");
  assert.equal(ok, false);
  assert.match(lines.join("\n"), /stale expected failure: unscored tasks-status-notifications now passes/);
});

test("a listed scenario the suite does not run fails the run", () => {
  const { ok, lines } = evaluate(SUMMARY, LISTED + "tasks-gone tasks: not in this suite\n");
  assert.equal(ok, false);
  assert.match(lines.join("\n"), /tasks-gone is not a scenario of this run/);
});

test("a summary without scenarios fails the run", () => {
  assert.equal(evaluate("=== SUMMARY ===\n", "").ok, false);
});

test("a malformed or repeated line is refused with its line number", () => {
  assert.throws(() => expectedFailures("server-stateless\n"), /line 1: 'server-stateless' is not/);
  assert.throws(() => expectedFailures("a mrtr: x\na mrtr: y\n"), /line 2: a is listed twice/);
});
