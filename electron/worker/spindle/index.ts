// The `spindle` global an extension sees, assembled from one module per namespace.
import type { CancelReason, HostResponseMessage, ToolInvocationResultMessage, WorkerToHostMessage } from '../../../shared/protocol';
import type { ExtensionManifest, ToolInvocationPayloadDTO, ToolRegistrationDTO } from '../../../shared/types/spindle';
import { createHostRequests } from '../host-requests';
import { EventHandlers, type SpindleHandler } from './events';
import { createGenerate, type SpindleGenerate } from './generate';
import { createLog, formatLogArgs, type SpindleLog } from './log';
import { PermissionState, type SpindlePermissions } from './permissions';
import { createStorage, type SpindleStorage } from './storage';
import { ToolCalls } from './tools';

/** The one local user of the Workbench, as Lumiverse's `userId` arguments name it. */
export const LOCAL_USER_ID = 'local';

export interface Spindle {
  registerTool(tool: ToolRegistrationDTO): void;
  unregisterTool(name: string): void;
  /** Returns a function that removes the handler again. */
  on(event: string, handler: SpindleHandler): () => void;
  off(event: string, handler: SpindleHandler): void;
  log: SpindleLog;
  generate: SpindleGenerate;
  storage: SpindleStorage;
  userStorage: SpindleStorage;
  permissions: SpindlePermissions;
  readonly extensionId: string;
  readonly manifest: Readonly<ExtensionManifest>;
}

export interface SpindleRuntime {
  api: Spindle;
  invoke(kind: 'invocation' | 'simulation', payload: ToolInvocationPayloadDTO): Promise<ToolInvocationResultMessage>;
  cancel(requestId: string, reason: CancelReason): void;
  /** Calls the handlers of a notification event; their failures are logged, never thrown. */
  emit(event: string, payload: unknown): Promise<void>;
  setPermissions(granted: string[]): Promise<void>;
  onResponse(message: HostResponseMessage): void;
}

export function createSpindle(options: { manifest: ExtensionManifest; granted: string[]; send: (message: WorkerToHostMessage) => void }): SpindleRuntime {
  const { send } = options;
  const manifest = Object.freeze({ ...options.manifest, permissions: Object.freeze([...options.manifest.permissions]) }) as Readonly<ExtensionManifest>;
  const log = createLog(send);
  const events = new EventHandlers(LOCAL_USER_ID, (event, error) => log.warn(`A ${event} handler failed:`, error));
  const permissions = new PermissionState(manifest.id, options.granted, events);
  const requests = createHostRequests(send);
  const tools = new ToolCalls(events, LOCAL_USER_ID, send);

  const api: Spindle = {
    registerTool: (tool) => tools.registerTool(tool),
    unregisterTool: (name) => tools.unregisterTool(name),
    on: (event, handler) => events.on(event, handler),
    off: (event, handler) => events.off(event, handler),
    log,
    generate: createGenerate(requests),
    storage: createStorage('storage', requests),
    userStorage: createStorage('userStorage', requests),
    permissions: permissions.api(),
    extensionId: manifest.id,
    manifest,
  };

  return {
    api,
    invoke: (kind, payload) => tools.invoke(kind, payload),
    cancel: (requestId, reason) => tools.cancel(requestId, reason),
    emit: (event, payload) => events.emit(event, payload),
    setPermissions: (granted) => permissions.update(granted),
    onResponse: (message) => requests.onResponse(message),
  };
}

export { formatLogArgs };
