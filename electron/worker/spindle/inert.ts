// The members the Workbench has no equivalent for, built from shared/spindle/members.ts: present,
// logged once each, answering with a neutral value or rejecting UNSUPPORTED_HERE.
import { EMPTY_ANSWERS } from '../../../shared/spindle/empty-answers';
import type { MethodStyle, NamespaceSpec, SpindleMember } from '../../../shared/spindle/members';

export interface InertContext {
  /** Tells the host (once per member path) that the extension used something inert here. */
  touched(path: string): void;
  hasPermission(permission: string): boolean;
  denied(permission: string, operation: string): Error;
}

export function unsupported(path: string): Error {
  return Object.assign(new Error(`spindle.${path} is not available in the Council Workbench.`), { code: 'UNSUPPORTED_HERE' });
}

const NEUTRAL: Partial<Record<MethodStyle, () => unknown>> = {
  page: () => ({ data: [], total: 0 }),
  list: () => [],
  record: () => ({}),
  null: () => null,
  false: () => false,
  done: () => undefined,
  ...EMPTY_ANSWERS,
};

function method(path: string, style: MethodStyle, permission: string | undefined, ctx: InertContext): (...args: unknown[]) => unknown {
  const check = (): Error | null => (permission && !ctx.hasPermission(permission) ? ctx.denied(permission, `spindle.${path}`) : null);
  switch (style) {
    case 'void':
      return () => {
        ctx.touched(path);
      };
    case 'off':
      return () => {
        ctx.touched(path);
        return () => undefined;
      };
    case 'string':
      return () => {
        ctx.touched(path);
        return '';
      };
    case 'stream':
      return () => {
        ctx.touched(path);
        const error = check() ?? unsupported(path);
        // eslint-disable-next-line require-yield -- a stream that fails on its first read
        return (async function* refuse(): AsyncGenerator<never, void, void> {
          throw error;
        })();
      };
    default:
      return async () => {
        ctx.touched(path);
        const denied = check();
        if (denied) throw denied;
        const neutral = NEUTRAL[style];
        if (neutral) return neutral();
        throw unsupported(path);
      };
  }
}

/** A namespace object whose every method answers as its spec says. */
export function inertNamespace(path: string, spec: NamespaceSpec, ctx: InertContext, permission = spec.permission): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, style] of Object.entries(spec.methods)) {
    out[name] = typeof style === 'string' ? method(`${path}.${name}`, style, permission, ctx) : inertNamespace(`${path}.${name}`, style, ctx, style.permission ?? permission);
  }
  return out;
}

/** The inert value of a member: a function or a namespace. */
export function inertMember(member: SpindleMember, ctx: InertContext): unknown {
  if (member.kind === 'namespace') return inertNamespace(member.name, member.namespace ?? { methods: {} }, ctx);
  return method(member.name, member.style ?? 'reject', undefined, ctx);
}
