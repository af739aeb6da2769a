// One way to declare a kernel endpoint: what it takes, what it answers, the error codes it may answer, and for a
// streaming endpoint, each chunk. Schemas are TypeBox (JSON Schema), so the answering side checks them with one engine
// and both sides take their types from the same table.
import type { Static, TSchema } from '@sinclair/typebox';
import type { Result } from '../errors';
import type { CallOptions, RpcClient } from './client';

export interface Endpoint<P extends TSchema = TSchema, R extends TSchema = TSchema, C extends TSchema | undefined = TSchema | undefined> {
  description?: string;
  params: P;
  result: R;
  /** Every code the endpoint may answer besides the kernel's and its link's own (see KERNEL_ERRORS); none when absent. */
  errors?: readonly string[];
  /** A streaming endpoint's chunks, sent before its result. */
  chunk?: C;
}

export type EndpointTable = Record<string, Endpoint>;

/** Codes any call may answer, whatever it declares: the link's and the kernel's own. */
export const KERNEL_ERRORS = ['UNKNOWN_METHOD', 'INVALID_INPUT', 'CANCELLED', 'INTERNAL', 'HOST_TIMEOUT'] as const;

/** Declares an endpoint; a link may add fields of its own (the spindle link: the permission a call needs). */
export function endpoint<const S extends Endpoint>(spec: S): S {
  return spec;
}

export type ParamsOf<T extends EndpointTable, M extends keyof T> = Static<T[M]['params']>;
export type ResultOf<T extends EndpointTable, M extends keyof T> = Static<T[M]['result']>;
export type ChunkOf<T extends EndpointTable, M extends keyof T> = NonNullable<T[M]['chunk']> extends TSchema ? Static<NonNullable<T[M]['chunk']>> : never;

export interface TypedCallOptions<Chunk> extends Omit<CallOptions, 'onChunk'> {
  onChunk?: (chunk: Chunk) => void;
}

/** A client whose calls are typed by the table (types only: the calling side loads no schema library). */
export interface TypedClient<T extends EndpointTable> {
  call<M extends keyof T & string>(method: M, params: ParamsOf<T, M>, options?: TypedCallOptions<ChunkOf<T, M>>): Promise<Result<ResultOf<T, M>>>;
  close(): void;
}

export function typedClient<T extends EndpointTable>(client: RpcClient<unknown>): TypedClient<T> {
  return {
    call: (method, params, options) => client.call(method, params, options as CallOptions) as Promise<Result<never>>,
    close: () => client.close(),
  };
}
