// What each extension registered for the prompt pipeline (macros, interceptors, context handlers…) and
// what it sent its frontend: kept by the host, shown on its card, run by the Workbench chat pipeline.
import type { ExtensionPermission } from '../../../../shared/types/spindle';
import { fail, text, unknownMethod, type Caller, type NamespaceHandler } from './namespace';

export type RegistrationKind = 'interceptor' | 'context_handler' | 'macro_interceptor' | 'world_info_interceptor' | 'message_content_processor';

/** Lumiverse's permission for each kind of registration. */
export const KIND_PERMISSION: Record<RegistrationKind, ExtensionPermission> = {
  interceptor: 'interceptor',
  context_handler: 'context_handler',
  macro_interceptor: 'macro_interceptor',
  world_info_interceptor: 'generation',
  message_content_processor: 'chat_mutation',
};

export interface MacroRegistration {
  name: string;
  description: string;
  category: string;
  /** The value pushed with updateMacroValue, if any (used instead of calling the handler). */
  value?: string;
  /** Registered with a handler function (pull model); without one, only pushed values resolve it. */
  hasHandler: boolean;
}

export interface PipelineRegistration {
  kind: RegistrationKind;
  id: string;
  priority: number;
  timeoutMs?: number;
}

export interface ExtensionRegistrations {
  macros: Map<string, MacroRegistration>;
  pipeline: Map<string, PipelineRegistration>;
  /** The last messages its backend sent with sendToFrontend, oldest first. */
  frontend: Array<{ at: number; payload: unknown }>;
}

const MAX_FRONTEND_MESSAGES = 200;
const MACRO_NAME = /^[A-Za-z_][A-Za-z0-9_:.-]{0,63}$/;

export class PipelineRegistrations implements NamespaceHandler {
  private readonly byExtension = new Map<string, ExtensionRegistrations>();

  constructor(
    private readonly now: () => number,
    private readonly changed: (extensionId: string) => void,
    private readonly denied: (extensionId: string, permission: ExtensionPermission, operation: string) => void,
    /** Its backend sent its frontend a message (the window's frames get it at once). */
    private readonly toFrontend: (extensionId: string, payload: unknown) => void = () => undefined,
  ) {}

  of(extensionId: string): ExtensionRegistrations {
    let regs = this.byExtension.get(extensionId);
    if (!regs) this.byExtension.set(extensionId, (regs = { macros: new Map(), pipeline: new Map(), frontend: [] }));
    return regs;
  }

  /** The worker stopped: its handlers are gone with it. */
  clear(extensionId: string): void {
    const regs = this.byExtension.get(extensionId);
    if (!regs) return;
    regs.macros.clear();
    regs.pipeline.clear();
    this.changed(extensionId);
  }

  handle(caller: Caller, method: string, args: unknown[]): unknown {
    const params = (args[0] ?? {}) as Record<string, unknown>;
    const regs = this.of(caller.extensionId);
    switch (method) {
      case 'registerMacro': {
        const def = (params.definition ?? {}) as Record<string, unknown>;
        const name = text(def.name, 'name', 64);
        if (!MACRO_NAME.test(name)) fail('INVALID_INPUT', 'A macro name is letters, digits, _ : . - and starts with a letter or _.', '/name');
        regs.macros.set(name.toLowerCase(), {
          name,
          description: typeof def.description === 'string' ? def.description.slice(0, 500) : '',
          category: typeof def.category === 'string' ? def.category.slice(0, 100) : '',
          hasHandler: params.hasHandler === true,
        });
        break;
      }
      case 'unregisterMacro':
        regs.macros.delete(text(params.name, 'name', 64).toLowerCase());
        break;
      case 'updateMacroValue': {
        const macro = regs.macros.get(text(params.name, 'name', 64).toLowerCase());
        if (!macro) fail('NOT_FOUND', `No macro "${String(params.name)}" registered by this extension.`, '/name');
        macro.value = String(params.value ?? '').slice(0, 64 * 1024);
        break;
      }
      case 'register': {
        const kind = params.kind as RegistrationKind;
        const permission = KIND_PERMISSION[kind];
        if (!permission) fail('INVALID_INPUT', 'Unknown registration kind.', '/kind');
        if (!caller.allowed(permission)) {
          this.denied(caller.extensionId, permission, `register ${kind}`);
          fail('PERMISSION_DENIED', `${permission} — registering a ${kind.replace(/_/g, ' ')} needs the ${permission} permission.`);
        }
        const options = (params.options ?? {}) as { priority?: unknown; timeoutMs?: unknown };
        const id = text(params.id, 'id', 64);
        regs.pipeline.set(id, {
          kind,
          id,
          priority: typeof options.priority === 'number' && Number.isFinite(options.priority) ? options.priority : 100,
          ...(typeof options.timeoutMs === 'number' && options.timeoutMs > 0 ? { timeoutMs: options.timeoutMs } : {}),
        });
        break;
      }
      case 'unregister':
        regs.pipeline.delete(text(params.id, 'id', 64));
        break;
      case 'sendToFrontend':
        regs.frontend.push({ at: this.now(), payload: params.payload ?? null });
        if (regs.frontend.length > MAX_FRONTEND_MESSAGES) regs.frontend.splice(0, regs.frontend.length - MAX_FRONTEND_MESSAGES);
        this.toFrontend(caller.extensionId, params.payload ?? null);
        break;
      default:
        return unknownMethod('pipeline', method);
    }
    this.changed(caller.extensionId);
    return null;
  }
}
