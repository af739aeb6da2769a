// The whole host contract: every method once, declared as a kernel endpoint (shared/rpc/endpoint.ts), with its types.
import type { Static } from '@sinclair/typebox';
import { hostMethods } from './host';
import { settingsMethods } from './settings';
import { toolMethods } from './tools';
import { extensionMethods } from './extensions';
import { connectionMethods } from './connections';
import { sidecarMethods } from './sidecar';
import { chatMethods } from './chat';
import { councilMethods } from './council';
import { safetyMethods } from './safety';
import { mcpMethods } from './mcp';
import { backupMethods } from './backup';
import { localModelMethods } from './local-models';
import { regexMethods } from './regex';
import { presetMethods } from './presets';

export const contract = {
  ...hostMethods,
  ...settingsMethods,
  ...toolMethods,
  ...extensionMethods,
  ...connectionMethods,
  ...sidecarMethods,
  ...chatMethods,
  ...councilMethods,
  ...safetyMethods,
  ...mcpMethods,
  ...backupMethods,
  ...localModelMethods,
  ...regexMethods,
  ...presetMethods,
};

export type Contract = typeof contract;
export type MethodName = keyof Contract;
export type MethodInput<M extends MethodName> = Static<Contract[M]['params']>;
export type MethodOutput<M extends MethodName> = Static<Contract[M]['result']>;

/** Who is calling: the transport the call came through. */
export interface CallContext {
  origin: 'ipc' | 'ws' | 'cli' | 'test';
}

/** One handler per method: a missing or mistyped handler is a compile error. */
export type Handlers = {
  [M in MethodName]: (input: MethodInput<M>, ctx: CallContext) => Promise<MethodOutput<M>> | MethodOutput<M>;
};

export function isMethodName(name: string): name is MethodName {
  return Object.prototype.hasOwnProperty.call(contract, name);
}
