// The 2026-07-28 gate: reads the summary the conformance suite prints under
// `--requirements 2026-07-28` and the checked-in list of expected failures, and says whether the
// run passes. A run passes when every scenario the suite runs passes — scored ones and the unscored
// ones it runs besides (extensions such as tasks, pending scenarios) alike — except those listed; a
// listed scenario that now passes, or that the suite does not run, fails the run too, so the list
// can only shrink, always says what is still missing, and a scenario that passes once is held to it.
//
// Expected-failures file: one scenario per line, `<scenario-id> <owner>: <reason>`; blank lines
// and lines starting with `#` are ignored.

/** The scenarios of a summary: `{ name, passed, failed }` per scenario line, in order. */
export function scenarios(summary) {
  return [...summary.matchAll(/^([✓✗]) (\S+): (\d+) passed, (\d+) failed/gm)].map((m) => ({
    name: m[2],
    ok: m[1] === "✓" && Number(m[4]) === 0,
    passed: Number(m[3]),
    failed: Number(m[4]),
  }));
}

/** The names of the scenarios the summary lists under "Not scored for …". */
export function unscored(summary) {
  const at = summary.search(/^Not scored for /m);
  if (at < 0) {
    return new Set();
  }
  return new Set([...summary.slice(at).matchAll(/^\s+[✓✗] (\S+) \(/gm)].map((m) => m[1]));
}

/**
 * The expected failures of `text`: a map from scenario id to its owner and reason. Throws, naming
 * the line, on a line that is not `<scenario-id> <owner>: <reason>` or names a scenario twice.
 */
export function expectedFailures(text) {
  const expected = new Map();
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) {
      return;
    }
    const m = /^(\S+)\s+([a-z][a-z0-9-]*):\s*(\S.*)$/.exec(line);
    if (!m) {
      throw new Error(`expected failures, line ${index + 1}: '${line}' is not `
          + "'<scenario-id> <owner>: <reason>'");
    }
    if (expected.has(m[1])) {
      throw new Error(`expected failures, line ${index + 1}: ${m[1]} is listed twice`);
    }
    expected.set(m[1], { owner: m[2], reason: m[3] });
  });
  return expected;
}

/**
 * Judges one run: `{ ok, lines }`, where `lines` are what the CI log prints (the counts first,
 * then every problem with what to do about it).
 */
export function evaluate(summary, expectedText) {
  const all = scenarios(summary);
  const notScored = unscored(summary);
  const expected = expectedFailures(expectedText);
  const scored = all.filter((s) => !notScored.has(s.name));
  const others = all.filter((s) => notScored.has(s.name));
  const problems = [];
  for (const s of all) {
    const kind = notScored.has(s.name) ? "unscored " : "";
    if (!s.ok && !expected.has(s.name)) {
      problems.push(`new failure: ${kind}${s.name} (${s.failed} check(s) fail); fix it, or list it in `
          + "expected-failures-2026.txt with its owner and reason");
    }
    if (s.ok && expected.has(s.name)) {
      problems.push(`stale expected failure: ${kind}${s.name} now passes; remove its line from `
          + "expected-failures-2026.txt");
    }
  }
  for (const name of expected.keys()) {
    if (!all.some((s) => s.name === name)) {
      problems.push(`expected failure ${name} is not a scenario of this run; remove its line`);
    }
  }
  const count = (list, ok) => list.filter((s) => s.ok === ok).length;
  const listedFailing = (list) => list.filter((s) => !s.ok && expected.has(s.name)).length;
  const lines = [
    `conformance 2026-07-28: scored ${scored.length} (${count(scored, true)} pass, `
        + `${count(scored, false)} fail, ${listedFailing(scored)} of them expected); `
        + `unscored ${others.length} (${count(others, true)} pass, ${count(others, false)} fail, `
        + `${listedFailing(others)} of them expected)`,
    ...problems.map((p) => `conformance 2026-07-28: ${p}`),
  ];
  return { ok: all.length > 0 && problems.length === 0, lines };
}
