// The CLI waits for enabled MCP servers and extensions before it lists or runs tools, and its help fits the terminal.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../../electron/headless/cli/run-cli';
import { commands } from '../../../electron/headless/cli/index';
import { helpText, wrap } from '../../../electron/headless/cli/help-text';
import { waitForToolSources } from '../../../electron/headless/cli/tool-sources';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { STDIO_FIXTURE } from '../../unit/mcp/harness';

afterEach(cleanupTempDirs);

async function cli(dataDir: string, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli([...args, '--data-dir', dataDir], { out: (t) => out.push(t), err: (t) => err.push(t) }, { bundledExtensionsDir: null });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('CLI tool commands wait for their sources', () => {
  it('add an MCP server, then invoke its tool in a new process: 20 of 20 find the tool', async () => {
    const dataDir = tempDir();
    const failures: string[] = [];
    for (let i = 0; i < 20; i++) {
      const id = `ev${i}`;
      const added = await cli(dataDir, ['mcp', 'add', id, '--command', process.execPath, '--arg', STDIO_FIXTURE, '--trusted']);
      expect(added.code, added.err).toBe(0);
      const invoked = await cli(dataDir, ['tools', 'invoke', `mcp-${id}:echo`, '--args', '{"text":"hi"}', '--approve', `mcp-${id}:*`, '--json']);
      if (invoked.code !== 0) failures.push(`${i}: ${invoked.out}`);
      else expect(JSON.parse(invoked.out)).toMatchObject({ ok: true, content: expect.stringContaining('hi') });
      expect((await cli(dataDir, ['mcp', 'remove', id])).code).toBe(0);
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it('waits for a connecting MCP server until it connects, and names one that never answers', async () => {
    vi.useFakeTimers();
    try {
      let status: 'connecting' | 'connected' = 'connecting';
      const listeners = new Set<() => void>();
      const fakeHost = {
        extensions: { whenSettled: async () => undefined, list: () => [] },
        mcp: {
          list: () => [{ config: { id: 'ev' }, status }],
          onEvent: (listener: () => void) => {
            listeners.add(listener);
            return () => listeners.delete(listener);
          },
        },
      };
      const connects = waitForToolSources(fakeHost as never, 15_000);
      await vi.advanceTimersByTimeAsync(2_000);
      status = 'connected';
      for (const listener of listeners) listener();
      expect(await connects).toEqual([]);
      expect(listeners.size).toBe(0);

      status = 'connecting';
      const mute = waitForToolSources(fakeHost as never, 15_000);
      await vi.advanceTimersByTimeAsync(15_000);
      expect(await mute).toEqual(['MCP server "ev" did not answer within 15 s; its tools are missing.']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('CLI help', () => {
  it.each([60, 80, 140])('wraps every line to %i columns and lists every command', (columns) => {
    const text = helpText(commands, columns);
    for (const line of text.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(columns);
    for (const command of commands) expect(text).toContain(command.words.join(' '));
  });

  it('keeps a word longer than the width whole rather than cutting it', () => {
    expect(wrap('a verylongword b', 5)).toEqual(['a', 'verylongword', 'b']);
  });
});
