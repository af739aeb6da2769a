// Safety test setup: a real host (browser mode: a person answers approvals unless a policy is given), probe tools, event helpers.
import path from 'node:path';
import { createHost, type Host } from '../../../electron/core/host';
import { silentLogger, type Clock, type Timers } from '../../../electron/core/ports';
import type { ExecuteRequest, ExecuteResult, ToolExecutor } from '../../../electron/core/registry-port';
import { interactiveApprovalPolicy, type ApprovalPolicy } from '../../../electron/core/safety/approval-policy';
import { confBackend } from '../../../electron/core/settings/conf-backend';
import type { HostEvent } from '../../../shared/contract/events';
import type { ApprovalRequest } from '../../../shared/types/safety';
import type { ToolInfo } from '../../../shared/types/tools';
import { eventually } from '../../helpers/events';
import { tempDir } from '../../helpers/temp-dir';

export const BUNDLED = path.join(import.meta.dirname, '../../../resources/extensions');

export type SafetyHost = Host & { events: HostEvent[]; dataDir: string };

export async function safetyHost(options: { policy?: ApprovalPolicy; bundled?: boolean; clock?: Clock; timers?: Timers } = {}): Promise<SafetyHost> {
  const dataDir = tempDir();
  const host = await createHost({
    checkOutputs: true,
    dataDir,
    mode: 'browser',
    settingsBackend: confBackend,
    log: silentLogger,
    bundledExtensionsDir: options.bundled ? BUNDLED : null,
    approvalPolicy: options.policy ?? interactiveApprovalPolicy,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.timers ? { timers: options.timers } : {}),
  });
  if (options.bundled) await host.extensions.whenSettled();
  const events: HostEvent[] = [];
  host.onEvent((e) => events.push(e));
  return Object.assign(host, { events, dataDir });
}

export async function call<T = unknown>(host: Host, method: string, input: unknown): Promise<T> {
  const result = await host.api.call(method, input, { origin: 'test' });
  if (!result.ok) throw Object.assign(new Error(`${result.error.code}: ${result.error.message}`), { error: result.error });
  return result.value as T;
}

export interface Probe extends ToolExecutor {
  calls: ExecuteRequest[];
  simulations: ExecuteRequest[];
}

/** Records every call; answers with `answer(args)` (default: the args as JSON). */
export function probe(answer: (args: Record<string, unknown>, request: ExecuteRequest) => unknown = (args) => ({ got: stripHost(args) }), options: { simulate?: boolean } = {}): Probe {
  const calls: ExecuteRequest[] = [];
  const simulations: ExecuteRequest[] = [];
  const p: Probe = {
    calls,
    simulations,
    execute(request: ExecuteRequest): Promise<ExecuteResult> {
      calls.push(request);
      return Promise.resolve({ ok: true, value: answer(request.args, request) });
    },
  };
  if (options.simulate) {
    p.simulate = (request: ExecuteRequest) => {
      simulations.push(request);
      return Promise.resolve({ ok: true, value: `would do ${JSON.stringify(stripHost(request.args))}` });
    };
  }
  return p;
}

export function stripHost(args: Record<string, unknown>): Record<string, unknown> {
  const out = { ...args };
  delete out.__deadlineMs;
  delete out.context;
  return out;
}

/** Registers a builtin test tool (source `probe`) and returns its info. */
export function register(host: Host, dto: Record<string, unknown>, executor: ToolExecutor, sourceId = 'probe'): ToolInfo {
  const result = host.registry.register(
    { kind: 'builtin', id: sourceId },
    { display_name: String(dto.name), description: `Test tool ${String(dto.name)}`, parameters: { type: 'object', properties: {} }, ...dto },
    executor,
  );
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return result.value;
}

/** Resolves with the n-th approval.requested event (1-based), waiting for it (no polling). */
export function approvalRequested(host: SafetyHost, n = 1): Promise<ApprovalRequest> {
  return eventually(host, host.events, (events) => events.filter((e): e is Extract<HostEvent, { type: 'approval.requested' }> => e.type === 'approval.requested')[n - 1]?.request);
}

export class ManualClock implements Clock {
  time = 1_700_000_000_000;
  now(): number {
    return this.time;
  }
}
