// The spindle.* requests by which extensions serve each other and the Workbench: Lumiverse's shared RPC pool
// (rpcPool) and its providers (Spindle 0.6.20: a provider registry, sidecar endpoints, embedding, TTS and
// speech-to-text drivers). Part of the one request table (requests.ts).
import { Type } from '@sinclair/typebox';
import { endpoint } from '../rpc/endpoint';
import { MAX_ENDPOINT_CHARS } from './rpc-pool-names';
import { Any, Id, named, Opt, Options } from './request-schema';

/** Lumiverse's read policy: the gated permissions both owner and reader must hold (omitted: all the owner's). */
const Policy = Options({ requires: Opt(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 })) });
const Endpoint = Id(MAX_ENDPOINT_CHARS);
/** A provider's kind: Lumiverse's are embedding, tts, stt and sidecar; others are kept and listed, never used. */
const Kind = Type.String({ pattern: '^[a-z][a-z0-9_-]{0,31}$' });
const ProviderId = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$' });

export const PEER_REQUESTS = {
  'rpcPool.sync': endpoint({ ...named({ endpoint: Endpoint, value: Opt(Any), policy: Policy }), result: Type.Null(), errors: ['QUOTA_EXCEEDED', 'INPUT_TOO_LARGE'] }),
  'rpcPool.handle': endpoint({ ...named({ endpoint: Endpoint, policy: Policy }), result: Type.Null(), errors: ['QUOTA_EXCEEDED'] }),
  'rpcPool.unregister': endpoint({ ...named({ endpoint: Endpoint }), result: Type.Null() }),
  // The owner's handler runs in its worker: its failure, its time-out, or its worker gone.
  'rpcPool.read': endpoint({ ...named({ endpoint: Endpoint }), result: Any, errors: ['NOT_FOUND', 'PERMISSION_DENIED', 'TOOL_ERROR', 'TOOL_TIMEOUT', 'TOOL_UNAVAILABLE', 'RESULT_TOO_LARGE', 'INVALID_RESULT', 'CANCELLED', 'RATE_LIMITED'] }),
  // Registration is fire-and-forget, as in Lumiverse; `handled` says whether the worker holds a handler for it.
  'providers.register': endpoint({ ...named({ kind: Kind, id: ProviderId, description: Opt(Any), broker: Opt(Any) }), result: Type.Null(), errors: ['QUOTA_EXCEEDED', 'INPUT_TOO_LARGE'] }),
  'providers.unregister': endpoint({ ...named({ kind: Kind, id: ProviderId }), result: Type.Null() }),
  'providers.handle': endpoint({ ...named({ kind: Kind, id: ProviderId, bound: Type.Boolean() }), result: Type.Null(), errors: ['QUOTA_EXCEEDED'] }),
} as const;
