// What each extension registered for the prompt pipeline (macros, interceptors, context handlers…) and
// what it sent its frontend: kept by the host, shown on its card, run by the Workbench chat pipeline.
import type { SpindleParams } from '../../../../shared/spindle/requests';
import type { ExtensionPermission } from '../../../../shared/types/spindle';
import { fail, type Caller, type HandlersOf } from './handlers';

export type RegistrationKind = SpindleParams<'pipeline.register'>['kind'];

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
  /** The chats whose prompt regex scripts it applies itself (promptRegex.setOwnedChats): the chat's own pass skips them. */
  promptRegexChats: Set<string>;
}

const MAX_FRONTEND_MESSAGES = 200;

export class PipelineRegistrations {
  private readonly byExtension = new Map<string, ExtensionRegistrations>();
  /** Per extension: the message to its frontend whose parts are still coming. */
  private readonly partsOf = new Map<string, { id: number; count: number; parts: string[] }>();

  constructor(
    private readonly now: () => number,
    private readonly changed: (extensionId: string) => void,
    private readonly denied: (extensionId: string, permission: ExtensionPermission, operation: string) => void,
    /** Its backend sent its frontend a message (the window's frames get it at once). */
    private readonly toFrontend: (extensionId: string, payload: unknown) => void = () => undefined,
  ) {}

  of(extensionId: string): ExtensionRegistrations {
    let regs = this.byExtension.get(extensionId);
    if (!regs) this.byExtension.set(extensionId, (regs = { macros: new Map(), pipeline: new Map(), frontend: [], promptRegexChats: new Set() }));
    return regs;
  }

  /** The worker stopped: its handlers are gone with it. */
  clear(extensionId: string): void {
    const regs = this.byExtension.get(extensionId);
    if (!regs) return;
    regs.macros.clear();
    regs.pipeline.clear();
    regs.promptRegexChats.clear();
    this.changed(extensionId);
  }

  /** spindle's registrations for the pipeline (pipeline.*: params checked by the contract). */
  handlers(): HandlersOf<'pipeline'> {
    const changing =
      <P>(work: (params: P, regs: ExtensionRegistrations, extensionId: string) => void) =>
      (params: P, caller: Caller) => {
        work(params, this.of(caller.extensionId), caller.extensionId);
        this.changed(caller.extensionId);
        return null;
      };
    return {
      'pipeline.registerMacro': changing(({ definition, hasHandler }, regs) => {
        regs.macros.set(definition.name.toLowerCase(), {
          name: definition.name,
          description: definition.description?.slice(0, 500) ?? '',
          category: definition.category?.slice(0, 100) ?? '',
          hasHandler: hasHandler === true,
        });
      }),
      'pipeline.unregisterMacro': changing(({ name }, regs) => regs.macros.delete(name.toLowerCase())),
      'pipeline.updateMacroValue': changing(({ name, value }, regs) => {
        const macro = regs.macros.get(name.toLowerCase()) ?? fail('NOT_FOUND', `No macro "${name}" registered by this extension.`, '/name');
        macro.value = String(value ?? '').slice(0, 64 * 1024);
      }),
      'pipeline.register': (params, caller) => {
        const permission = KIND_PERMISSION[params.kind];
        if (!caller.allowed(permission)) {
          this.denied(caller.extensionId, permission, `register ${params.kind}`);
          const kind = params.kind.replace(/_/g, ' ');
          fail('PERMISSION_DENIED', `${permission} — registering ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} needs the ${permission} permission.`);
        }
        return changing<typeof params>(({ kind, id, options }, regs) => {
          regs.pipeline.set(id, {
            kind,
            id,
            priority: options?.priority !== undefined && Number.isFinite(options.priority) ? options.priority : 100,
            ...(options?.timeoutMs !== undefined && options.timeoutMs > 0 ? { timeoutMs: options.timeoutMs } : {}),
          });
        })(params, caller);
      },
      'pipeline.unregister': changing(({ id }, regs) => regs.pipeline.delete(id)),
      'pipeline.setPromptRegexChats': changing(({ chatIds }, regs) => {
        regs.promptRegexChats = new Set(chatIds);
      }),
      'pipeline.sendToFrontend': changing(({ payload }, regs, extensionId) => this.deliverToFrontend(regs, extensionId, payload ?? null, false)),
      'pipeline.sendToFrontendPart': (params, caller) => {
        const payload = this.assemble(caller.extensionId, params);
        if (payload === undefined) return null;
        return changing<unknown>((value, regs, extensionId) => this.deliverToFrontend(regs, extensionId, value, true))(payload, caller);
      },
    };
  }

  /** `inParts`: it came in parts (over FRONTEND_PART_CHARS): the console keeps that it came, not its many MB of text. */
  private deliverToFrontend(regs: ExtensionRegistrations, extensionId: string, payload: unknown, inParts: boolean): void {
    regs.frontend.push({ at: this.now(), payload: inParts ? { '(sent in parts)': true } : payload });
    if (regs.frontend.length > MAX_FRONTEND_MESSAGES) regs.frontend.splice(0, regs.frontend.length - MAX_FRONTEND_MESSAGES);
    this.toFrontend(extensionId, payload);
  }

  /** One part of a message sent in parts; the message once its last part is in (undefined before). */
  private assemble(extensionId: string, part: SpindleParams<'pipeline.sendToFrontendPart'>): unknown {
    let pending = this.partsOf.get(extensionId);
    if (part.index === 0) this.partsOf.set(extensionId, (pending = { id: part.id, count: part.count, parts: [] }));
    if (!pending || pending.id !== part.id || pending.count !== part.count || part.index !== pending.parts.length) {
      this.partsOf.delete(extensionId);
      fail('INVALID_INPUT', 'A part of a message to the frontend came out of order; the message was dropped.', '/index');
    }
    pending.parts.push(part.part);
    if (pending.parts.length < pending.count) return undefined;
    this.partsOf.delete(extensionId);
    try {
      return JSON.parse(pending.parts.join('')) as unknown;
    } catch {
      return fail('INVALID_INPUT', 'The parts of a message to the frontend do not make JSON.', '/part');
    }
  }
}
