// A worker's stderr: Node's own warnings (and the lines continuing them) are warnings, everything else errors.
import { describe, expect, it } from 'vitest';
import { stderrLevels } from '../../../electron/core/extensions/workers/worker-output';

describe('stderr levels', () => {
  it("Node's module-type warning, four lines on a healthy start, is warn; an error after it is error", () => {
    const level = stderrLevels();
    const lines = [
      '(node:4242) [MODULE_TYPELESS_PACKAGE_JSON] Warning: Module type of file:///ext/dist/backend.js is not specified and it doesn\'t parse as CommonJS.',
      'Reparsing as ES module because module syntax was detected. This incurs a performance overhead.',
      'To eliminate this warning, add "type": "module" to /ext/package.json.',
      '(Use `node --trace-warnings ...` to show where the warning was created)',
      'TypeError: Cannot read properties of undefined (reading \'x\')',
      '    at file:///ext/dist/backend.js:3:9',
    ];
    expect(lines.map(level)).toEqual(['warn', 'warn', 'warn', 'warn', 'error', 'error']);
  });

  it('a later warning without the trace hint ends at a blank line; other stderr stays error', () => {
    const level = stderrLevels();
    expect(['plain stderr', '(node:1) ExperimentalWarning: Something', '', 'after the blank line'].map(level)).toEqual(['error', 'warn', 'error', 'error']);
  });
});
