// The building blocks of the spindle request contract (requests.ts): how one method is declared, and the shapes
// several methods share.
import { Type, type TProperties, type TSchema } from '@sinclair/typebox';
import type { ExtensionPermission } from '../types/spindle';
import type { Endpoint } from '../rpc/endpoint';

/**
 * One spindle.* method the host answers: a kernel endpoint (shared/rpc/endpoint.ts) whose params are an object (or
 * objects told apart by `type`), with the permission it needs. Besides its declared errors it may answer the ones every
 * request may (INVALID_INPUT, INTERNAL, and PERMISSION_DENIED when it needs a permission).
 */
export interface SpindleRequestSpec<P extends TSchema = TSchema, R extends TSchema = TSchema> extends Endpoint<P, R> {
  /**
   * Methods an extension calls with positional arguments (`spindle.chats.get(id)`) cross as `{ args: [...] }`; these
   * are the arguments' names, in order, which turn them into the params object (a missing or null one is absent; any
   * after the last, such as Lumiverse's trailing userId, are ignored).
   */
  positional?: readonly string[];
  permission?: ExtensionPermission;
}

/** Errors any request may answer. */
export const COMMON_ERRORS = ['INVALID_INPUT', 'INTERNAL'] as const;

/** Params passed as positional arguments, named in order by the keys of `props` (spread into an endpoint). */
export const positional = <T extends TProperties>(props: T) => ({ params: Type.Object(props), positional: Object.keys(props) });
/** Params the worker side sends as one object (spread into an endpoint). */
export const named = <T extends TProperties>(props: T) => ({ params: Type.Object(props) });

/** A non-empty string of at most `max` characters. */
export const Id = (max: number) => Type.String({ minLength: 1, maxLength: max });
export const Any = Type.Unknown();
export const Opt = Type.Optional;
/** An options object an extension passes: its known fields checked, others (Lumiverse's extras) let through. */
export const Options = <T extends TProperties>(props: T) => Type.Optional(Type.Object(props));
export const PageOptions = Options({ limit: Opt(Type.Number()), offset: Opt(Type.Number()) });
export const Page = <T extends TSchema>(item: T) => Type.Object({ data: Type.Array(item), total: Type.Number() });
export const OrNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** A DTO whose named fields are checked; the rest of Lumiverse's shape passes as it is. */
export const Dto = <T extends TProperties>(props: T) => Type.Object(props);

/** The same methods under `prefix` (storage and userStorage, the variable scopes, the toast levels). */
export function prefixed<P extends string, T extends Record<string, SpindleRequestSpec>>(prefix: P, specs: T): { [K in keyof T & string as `${P}.${K}`]: T[K] } {
  return Object.fromEntries(Object.entries(specs).map(([name, spec]) => [`${prefix}.${name}`, spec])) as { [K in keyof T & string as `${P}.${K}`]: T[K] };
}
