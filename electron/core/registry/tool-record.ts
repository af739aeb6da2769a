// What the registry keeps per tool, and the ToolInfo callers get from it (the status is its source's).
import type { ToolRegistrationDTO } from '../../../shared/types/spindle';
import type { ToolInfo, ToolStatus } from '../../../shared/types/tools';
import type { ExecuteRequest, ExecuteResult, ToolExecutor } from '../registry-port';
import type { CompiledSchema } from './compile-schema';
import { definitionHash } from './definition-hash';
import { SIMULATION_PLACEHOLDER_TEXT, type ToolSourceRef } from './registry-types';
import type { ValidatedTool } from './validate-registration';

export interface ToolRecord {
  /** Status is not stored here; it is the source's and is filled in by infoOf(). */
  info: Omit<ToolInfo, 'status'>;
  registration: ToolRegistrationDTO;
  parameters: CompiledSchema;
  outputSchema: CompiledSchema | null;
  executor: ToolExecutor;
  sourceId: string;
}

export function toolRecord(source: ToolSourceRef, qualified: string, alias: string, validated: ValidatedTool, executor: ToolExecutor): ToolRecord {
  const { registration, parameters, outputSchema, modeDeclared } = validated;
  return {
    info: {
      qualifiedName: qualified,
      alias,
      name: registration.name,
      displayName: registration.display_name,
      description: registration.description,
      parameters: registration.parameters,
      mode: registration.mode ?? 'write',
      modeDeclared,
      councilEligible: registration.council_eligible ?? false,
      inlineAvailable: registration.inline_available ?? false,
      hasSimulate: registration.has_simulate ?? false,
      requiresApproval: registration.requires_approval ?? false,
      source: source.kind,
      extensionId: source.kind === 'extension' ? source.id : null,
      definitionHash: definitionHash(registration),
    },
    registration,
    parameters,
    outputSchema,
    executor,
    sourceId: source.id,
  };
}

/** A fresh copy per caller, with its source's status. */
export function infoOf(record: ToolRecord, statuses: ReadonlyMap<string, ToolStatus>): ToolInfo {
  return { ...record.info, status: statuses.get(record.sourceId) ?? 'available' };
}

/** Hands the request to its executor (in a dry run, its simulate handler or the seed's placeholder); a throw rejects. */
export function executeOn(record: ToolRecord, request: ExecuteRequest, simulate: boolean): Promise<ExecuteResult> {
  try {
    if (!simulate) return Promise.resolve(record.executor.execute(request));
    // A tool without a simulate handler is not run at all in a dry run.
    if (record.registration.has_simulate && typeof record.executor.simulate === 'function') return Promise.resolve(record.executor.simulate(request));
    return Promise.resolve({ ok: true, value: SIMULATION_PLACEHOLDER_TEXT });
  } catch (error) {
    return Promise.reject(error);
  }
}
