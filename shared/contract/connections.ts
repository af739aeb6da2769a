// Connection methods: profiles as key-free views, keys set and cleared write-only, test, model lists, local-server detection.
import { Type } from '@sinclair/typebox';
import { HostErrorSchema } from './common';
import { endpoint } from '../rpc/endpoint';

const Empty = Type.Object({}, { additionalProperties: false });
const Id = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' });
const Key = Type.String({ minLength: 1, maxLength: 4096 });

export const ProviderSchema = Type.Union([
  Type.Literal('openai'),
  Type.Literal('anthropic'),
  Type.Literal('gemini'),
  Type.Literal('openai-compatible'),
  Type.Literal('ollama'),
  /** The built-in engine: a GGUF from the local model library, named by its id as the model. */
  Type.Literal('local'),
]);

export const KeyRefSchema = Type.Union([
  Type.Object({ kind: Type.Literal('env'), name: Type.String({ maxLength: 128 }) }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('stored') }, { additionalProperties: false }),
]);

/** A profile as the UI sends it; the host checks it further (http(s) only, no credentials in the URL, safe headers). */
export const ProfileInputSchema = Type.Object(
  {
    /** Omit to create a new profile (the host picks an id). */
    id: Type.Optional(Id),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    provider: ProviderSchema,
    baseUrl: Type.String({ minLength: 1, maxLength: 2048 }),
    defaultModel: Type.Optional(Type.String({ maxLength: 200 })),
    /** The model it makes images with (openai and openai-compatible): extensions' spindle.imageGen use it. */
    imageModel: Type.Optional(Type.String({ maxLength: 200 })),
    headers: Type.Optional(Type.Record(Type.String(), Type.String())),
    keyRef: Type.Optional(KeyRefSchema),
  },
  { additionalProperties: false },
);

export const ProfileViewSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  provider: ProviderSchema,
  /**
   * The API root the provider's SDK expects: `https://api.openai.com/v1`, `https://api.anthropic.com/v1`,
   * `https://generativelanguage.googleapis.com/v1beta`, an OpenAI-compatible server's `…/v1`, or an
   * Ollama server root (`http://127.0.0.1:11434`; a trailing `/api` is accepted too).
   */
  baseUrl: Type.String(),
  defaultModel: Type.String(),
  imageModel: Type.Optional(Type.String()),
  /** Extra request headers (e.g. OpenRouter's HTTP-Referer). Never Authorization (keys go through keyRef); a credential in another header is kept in the secret store and written here as STORED_SECRET. */
  headers: Type.Record(Type.String(), Type.String()),
  keyRef: Type.Optional(KeyRefSchema),
  /** A backup restore held it (the reason): it is not used until the person confirms it (connections.confirm). */
  held: Type.Optional(Type.String()),
  hasKey: Type.Boolean(),
  /** The key's last 4 characters, or null when there is no key or it is too short to hint at safely. */
  keyHint: Type.Union([Type.String(), Type.Null()]),
});

/** `openai-compatible`: a server none of the products' signatures matched, found by its /v1/models list. */
export const LocalServerKindSchema = Type.Union([Type.Literal('ollama'), Type.Literal('lmstudio'), Type.Literal('llamacpp'), Type.Literal('koboldcpp'), Type.Literal('vllm'), Type.Literal('openai-compatible')]);

export const DetectedServerSchema = Type.Object({
  kind: LocalServerKindSchema,
  port: Type.Integer(),
  /** A profile (without id) ready to save; keyRef absent. */
  suggested: Type.Omit(ProfileViewSchema, ['id', 'hasKey', 'keyHint']),
  models: Type.Array(Type.String()),
});

export const TestResultSchema = Type.Object({ ok: Type.Boolean(), models: Type.Array(Type.String()), error: Type.Optional(HostErrorSchema) });


const SecretsInfoSchema = Type.Object({
  backend: Type.String(),
  warning: Type.Optional(Type.String()),
  consent: Type.Optional(Type.Union([Type.Literal('needed'), Type.Literal('given')])),
});
export const connectionMethods = {
  'connections.list': endpoint({ description: 'Every connection profile, without keys (hasKey and the last 4 characters only).', params: Empty, result: Type.Array(ProfileViewSchema) }),
  'connections.save': endpoint({ description: 'Create or replace a profile; a key, when given, is stored in the secret store (never in settings).', params: Type.Object({ profile: ProfileInputSchema, key: Type.Optional(Key) }, { additionalProperties: false }), result: Type.Object({ profile: ProfileViewSchema, warnings: Type.Array(Type.String()) }) }),
  'connections.remove': endpoint({ description: 'Delete a profile and its stored key.', params: Type.Object({ id: Id }, { additionalProperties: false }), result: Type.Object({ removed: Type.Boolean() }) }),
  'connections.setKey': endpoint({ description: 'Store an API key for a profile (write-only).', params: Type.Object({ id: Id, key: Key }, { additionalProperties: false }), result: ProfileViewSchema }),
  'connections.confirm': endpoint({ description: 'Confirm a connection a backup restore held (new, or its address changed): it can be used again.', params: Type.Object({ id: Id }, { additionalProperties: false }), result: ProfileViewSchema }),
  'connections.clearKey': endpoint({ description: 'Forget a profile\'s key.', params: Type.Object({ id: Id }, { additionalProperties: false }), result: ProfileViewSchema }),
  'connections.test': endpoint({ description: 'Check a saved profile ({id}) or an unsaved one ({profile, key?}) by listing its models.', params: Type.Union([
      Type.Object({ id: Id }, { additionalProperties: false }),
      Type.Object({ profile: ProfileInputSchema, key: Type.Optional(Key) }, { additionalProperties: false }),
    ]), result: TestResultSchema }),
  'connections.models': endpoint({ description: 'The models a saved profile offers.', params: Type.Object({ id: Id }, { additionalProperties: false }), result: Type.Object({ models: Type.Array(Type.String()) }) }),
  'connections.detect': endpoint({ description: 'Look for local LLM servers on loopback (Ollama, LM Studio, llama.cpp, KoboldCpp, vLLM).', params: Empty, result: Type.Array(DetectedServerSchema) }),
  'connections.secretsInfo': endpoint({ description: 'Where keys are kept, and the warning to show where keys are entered when that is not encrypted.', params: Empty, result: SecretsInfoSchema }),
  'connections.allowObfuscatedKeys': endpoint({ description: 'S10: the person chooses to keep keys obfuscated on a machine without a keyring (asked once; nothing is saved before).', params: Empty, result: SecretsInfoSchema }),
};
