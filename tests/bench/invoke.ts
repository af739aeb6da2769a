// Invocation benchmark: a trivial tool through the whole host path, beside a raw fork round trip and an MCP stdio call.
import path from 'node:path';
import { createHost } from '../../electron/core/host';
import { silentLogger } from '../../electron/core/ports';
import { confBackend } from '../../electron/core/settings/conf-backend';
import { patternApprovalPolicy } from '../../electron/core/safety/approval-policy';
import { tempDir, cleanupTempDirs } from '../helpers/temp-dir';
import { mcpStdio, rawFork, type Target } from './baselines';
import { latencyRow, round, table, WARMUP_CALLS, WARMUP_MS, type LatencyRow } from './stats';

const SEQUENTIAL_CALLS = 5000;
const THROUGHPUT_CALLS = 50_000;
const IN_FLIGHT = 64;

async function hostPath(): Promise<Target> {
  const host = await createHost({
    dataDir: tempDir('cw-bench-'),
    mode: 'cli',
    settingsBackend: confBackend,
    log: silentLogger,
    bundledExtensionsDir: path.join(import.meta.dirname, 'fixtures', 'extensions'),
  });
  await host.extensions.whenSettled();
  const input = { qualifiedName: 'bench-echo:echo', args: { text: 'hi' } };
  const first = await host.api.call('tools.invoke', input, { origin: 'cli' });
  if (!first.ok || !(first.value as { ok: boolean }).ok) throw new Error(`bench tool failed: ${JSON.stringify(first)}`);
  // Every answer is checked: a fast error (a worker stopped by the flood cap, say) is not a fast call.
  let failed = 0;
  let firstFailure = '';
  const check = (result: Awaited<ReturnType<typeof host.api.call>>) => {
    if (result.ok && (result.value as { ok: boolean }).ok) return;
    if (failed++ === 0) firstFailure = JSON.stringify(result).slice(0, 300);
  };
  return {
    call: () => host.api.call('tools.invoke', input, { origin: 'cli' }).then(check),
    close: () => host.dispose(),
    verify: () => {
      if (failed > 0) throw new Error(`${failed} host calls failed; the figures would be meaningless. First: ${firstFailure}`);
    },
  };
}

/** The MCP echo server as a registry tool source: contract → registry → McpManager → SDK client → stdio. */
async function hostMcpPath(): Promise<Target> {
  // The echo tool has no readOnlyHint, so it is a write tool: approve it the way `--approve` does.
  const approvalPolicy = patternApprovalPolicy(['mcp-bench:*']);
  const host = await createHost({ dataDir: tempDir('cw-bench-'), mode: 'cli', settingsBackend: confBackend, log: silentLogger, bundledExtensionsDir: null, approvalPolicy });
  const server = { id: 'bench', transport: 'stdio' as const, command: process.execPath, args: [path.join(import.meta.dirname, 'fixtures', 'mcp-echo-server.mjs')], enabled: false };
  const added = await host.api.call('mcp.add', server, { origin: 'cli' });
  const connected = await host.api.call('mcp.connect', { id: 'bench' }, { origin: 'cli' });
  if (!added.ok || !connected.ok || (connected.value as { status: string }).status !== 'connected') throw new Error(`bench MCP server failed: ${JSON.stringify(connected)}`);
  const input = { qualifiedName: 'mcp-bench:echo', args: { text: 'hi' } };
  let failed = 0;
  let firstFailure = '';
  const check = (result: Awaited<ReturnType<typeof host.api.call>>) => {
    if (result.ok && (result.value as { ok: boolean; content?: string }).content === 'hi') return;
    if (failed++ === 0) firstFailure = JSON.stringify(result).slice(0, 300);
  };
  return {
    call: () => host.api.call('tools.invoke', input, { origin: 'cli' }).then(check),
    close: () => host.dispose(),
    verify: () => {
      if (failed > 0) throw new Error(`${failed} host MCP calls failed; the figures would be meaningless. First: ${firstFailure}`);
    },
  };
}

export async function invokeBenchmark({ json }: { json: boolean }) {
  const plan = { count: SEQUENTIAL_CALLS, total: THROUGHPUT_CALLS, inFlight: IN_FLIGHT };
  const makers = [
    ['host: contract → registry → worker', hostPath],
    ['raw child_process.fork round trip', rawFork],
    ['MCP SDK stdio callTool', mcpStdio],
    ['host: MCP tool via registry', hostMcpPath],
  ] as const;
  const rows: LatencyRow[] = [];
  for (const [name, make] of makers) {
    const target = await make();
    try {
      rows.push(await latencyRow(name, target.call, plan));
      target.verify?.();
    } finally {
      await target.close();
    }
  }
  cleanupTempDirs();
  const [host, fork, mcp] = rows as [LatencyRow, LatencyRow, LatencyRow];
  const ratios = {
    p50_vs_fork: round(host.p50_us / fork.p50_us, 2),
    p99_vs_fork: round(host.p99_us / fork.p99_us, 2),
    rps_vs_fork: round(host.rps / fork.rps, 2),
    rps_vs_mcp: round(host.rps / mcp.rps, 2),
  };
  const targets = { p50_vs_fork: '≤ 1.5', p99_vs_fork: '≤ 2', rps_vs_fork: '≥ 0.5', rps_vs_mcp: '≥ 2' };
  if (!json) {
    console.log(`Each row warms up for ${WARMUP_MS / 1000} s (at least ${WARMUP_CALLS} calls one after another, then with ${IN_FLIGHT} in flight), then ${SEQUENTIAL_CALLS} sequential calls for p50/p99 and ${THROUGHPUT_CALLS} calls with ${IN_FLIGHT} in flight for rps, one row at a time.\n`);
    console.log(table(rows as unknown as Array<Record<string, string | number>>));
    console.log('');
    console.log(table(Object.entries(ratios).map(([ratio, value]) => ({ ratio, value, target: targets[ratio as keyof typeof targets] }))));
  }
  return { rows, ratios, targets, calls: { sequential: SEQUENTIAL_CALLS, throughput: THROUGHPUT_CALLS, inFlight: IN_FLIGHT } };
}
