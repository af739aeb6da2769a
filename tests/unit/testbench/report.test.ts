// The test bench's reports: JUnit XML a CI system can parse whatever a log line held, and snapshots written byte
// for byte the same by the same run.
import { describe, expect, it } from 'vitest';
import { junitXml } from '../../../electron/core/testbench/junit';
import { compareSnapshot, stableJson } from '../../../electron/core/testbench/snapshot';
import type { CaseSnapshot } from '../../../electron/core/testbench/run-case';
import { isIgnored } from '../../../electron/headless/cli/watch-runs';

const run = (over: Partial<CaseSnapshot> = {}): CaseSnapshot => ({
  case: 'c',
  requests: [{ messages: [{ role: 'user', content: 'Hi' }], tools: [] }],
  stages: [
    { stage: 'assembly', by: 'host', prompt: '[user]\nHi' },
    { stage: 'interceptors', by: 'Weather', prompt: '[system]\nRain\n\n[user]\nHi' },
  ],
  toolCalls: [],
  reply: { text: 'Hello', finishReason: 'stop' },
  log: [],
  ...over,
});

describe('test bench reports', () => {
  it('escapes markup and drops control characters XML cannot hold', () => {
    const xml = junitXml('ext <1>', [
      { name: 'a&b', file: 'tests/a.case.json', ms: 1500, failure: { message: 'changed: "x" <y>', details: 'bell\u0007 tab\t line\nend' } },
      { name: 'ok', file: 'tests/ok.case.json', ms: 2 },
      { name: 'broken', file: 'tests/b.case.json', ms: 0, error: { message: 'no chat' } },
    ]);
    expect(xml).toContain('<testsuite name="ext &lt;1&gt;" tests="3" failures="1" errors="1" time="1.502">');
    expect(xml).toContain('<testcase classname="ext &lt;1&gt;" name="a&amp;b" file="tests/a.case.json" time="1.500">');
    expect(xml).toContain('<failure message="changed: &quot;x&quot; &lt;y&gt;">bell tab\t line\nend</failure>');
    expect(xml).toContain('<error message="no chat"/>');
    expect(xml).not.toContain('\u0007');
  });

  it('writes keys in sorted order at every level, and names the stage and request a difference is in', () => {
    expect(stableJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe('{\n  "a": {\n    "c": null,\n    "d": [\n      {\n        "y": 2,\n        "z": 1\n      }\n    ]\n  },\n  "b": 1\n}\n');
    const saved = stableJson(run());
    expect(compareSnapshot(saved, run(), 'c.snap.json')).toBeNull();
    const changed = run({ stages: [run().stages[0]!, { stage: 'interceptors', by: 'Weather', prompt: '[system]\nSun\n\n[user]\nHi' }], reply: { text: 'Hello!', finishReason: 'stop' } });
    const difference = compareSnapshot(saved, changed, 'c.snap.json')!;
    expect(difference.where).toEqual(['stage "interceptors" (by Weather)', 'reply']);
    expect(difference.diff).toContain('--- c.snap.json (saved)');
    expect(difference.diff).toContain('-      "prompt": "[system]\\nRain\\n\\n[user]\\nHi",');
    expect(difference.diff).toContain('+      "prompt": "[system]\\nSun\\n\\n[user]\\nHi",');
    // A saved file that is not JSON still gives a diff.
    expect(compareSnapshot('not json', run(), 'c.snap.json')!.diff).toContain('-not json');
  });

  it('--watch does not answer the snapshots a run writes, dependencies or git, and answers everything else', () => {
    for (const file of ['tests/__snapshots__/drizzle.snap.json', 'node_modules/x/index.js', '.git/index', 'src/node_modules/y.js']) expect(isIgnored(file)).toBe(true);
    for (const file of ['src/backend.ts', 'tests/drizzle.case.json', 'tests/harbor.jsonl', 'spindle.json', 'snapshots.md', 'my__snapshots__notes.txt']) expect(isIgnored(file)).toBe(false);
  });
});
