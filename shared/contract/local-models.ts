// Local model methods: the library of GGUF models the built-in engine runs (list, add a file on disk, remove).
import { Type } from '@sinclair/typebox';
import { FitSchema } from '../local-model/engine-contract';
import { endpoint } from '../rpc/endpoint';

export const LocalModelSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** Where the GGUF is: picked on disk, or in the data folder's models/ when downloaded. */
  file: Type.String(),
  sizeBytes: Type.Integer(),
  architecture: Type.String(),
  contextLength: Type.Union([Type.Integer(), Type.Null()]),
  source: Type.Union([
    Type.Object({ kind: Type.Literal('file') }),
    Type.Object({ kind: Type.Literal('download'), url: Type.String(), sha256: Type.Optional(Type.String()) }),
  ]),
  addedAt: Type.Number(),
  /** The file is no longer there (listed so its connections can say why they fail). */
  missing: Type.Optional(Type.Boolean()),
});

const Id = Type.String({ pattern: '^[a-z0-9-]{1,64}$' });

export const ModelDownloadSchema = Type.Object({
  id: Type.String(),
  source: Type.String(),
  state: Type.Union([Type.Literal('running'), Type.Literal('paused'), Type.Literal('failed'), Type.Literal('done')]),
  bytesDone: Type.Integer(),
  totalBytes: Type.Union([Type.Integer(), Type.Null()]),
  bytesPerSecond: Type.Integer(),
  secondsLeft: Type.Union([Type.Integer(), Type.Null()]),
  /** Why it stopped (failed), with its code. */
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String(), hint: Type.Optional(Type.String()) })),
  /** The library's model, once done. */
  modelId: Type.Optional(Type.String()),
});

/** A model the Workbench suggests (resources/local-models/catalog.json). */
export const CatalogEntrySchema = Type.Object({
  name: Type.String(),
  source: Type.String(),
  sizeBytes: Type.Integer(),
  licence: Type.String(),
  contextLength: Type.Integer(),
  toolCalling: Type.String(),
});

const Tally = Type.Object({ passed: Type.Integer(), of: Type.Integer() });

/** What the tool-calling probe found for one connection's model (models probe). */
export const ProbeCardSchema = Type.Object({
  connectionId: Type.String(),
  model: Type.String(),
  probedAt: Type.Number(),
  cases: Type.Integer(),
  /** Calls of the expected tool with valid arguments holding what was asked (every case that wants a call). */
  validCalls: Tally,
  /** No call where none was needed. */
  restraint: Tally,
  followUp: Tally,
  byKind: Type.Record(Type.String(), Tally),
  meanLatencyMs: Type.Number(),
  tokensPerSecond: Type.Number(),
  failures: Type.Array(Type.Object({ id: Type.String(), kind: Type.String(), why: Type.String() })),
});

const DownloadId = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

export const localModelMethods = {
  'models.list': endpoint({ description: 'The local models in the library.', params: Type.Object({}, { additionalProperties: false }), result: Type.Array(LocalModelSchema) }),
  'models.add': endpoint({ description: 'Adds a GGUF on disk to the library (used where it is).', params: Type.Object({ path: Type.String({ minLength: 1, maxLength: 4096 }) }, { additionalProperties: false }), result: LocalModelSchema }),
  'models.remove': endpoint({ description: 'Removes a model from the library; a file it downloaded is deleted, a file picked on disk is left.', params: Type.Object({ id: Id }, { additionalProperties: false }), result: Type.Object({ removed: LocalModelSchema, deletedFile: Type.Boolean() }) }),
  'models.pull': endpoint({ description: 'Downloads a GGUF (a URL, or hf:<owner>/<repo>/<file>.gguf) into the library; progress comes as models.download events. wait: answers when it ends.', params: Type.Object(
      {
        source: Type.String({ minLength: 1, maxLength: 4096 }),
        sha256: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{64}$' })),
        wait: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ), result: ModelDownloadSchema }),
  'models.downloads': endpoint({ description: 'The downloads of this run of the host, newest last.', params: Type.Object({}, { additionalProperties: false }), result: Type.Array(ModelDownloadSchema) }),
  'models.pause': endpoint({ description: 'Pauses a download (what arrived is kept; resume continues it).', params: DownloadId, result: ModelDownloadSchema }),
  'models.resume': endpoint({ description: 'Resumes a paused or failed download with a Range request.', params: DownloadId, result: ModelDownloadSchema }),
  'models.cancel': endpoint({ description: 'Stops a download and deletes what it fetched.', params: DownloadId, result: Type.Object({ cancelled: Type.Boolean() }) }),
  'models.probe': endpoint({ description: 'Runs the tool-calling probe (about 20 cases) against a connection and keeps its capability card; progress comes as models.probe events.', params: Type.Object(
      { connectionId: Type.String({ minLength: 1, maxLength: 64 }), model: Type.Optional(Type.String({ maxLength: 200 })), maxTokens: Type.Optional(Type.Integer({ minimum: 1, maximum: 4096 })) },
      { additionalProperties: false },
    ), result: ProbeCardSchema }),
  'models.fit': endpoint({ description: "Whether a model fits this machine (on the GPU, on the CPU, or not at all) and the memory it needs, from its GGUF header: a file, a URL or an hf: reference (only the header is fetched).", params: Type.Object({ source: Type.String({ minLength: 1, maxLength: 4096 }) }, { additionalProperties: false }), result: FitSchema }),
  'models.suggested': endpoint({ description: 'Small models that call tools well, with size, licence, context and source.', params: Type.Object({}, { additionalProperties: false }), result: Type.Array(CatalogEntrySchema) }),
  'models.probes': endpoint({ description: 'The capability cards the probe has kept, one per connection and model.', params: Type.Object({}, { additionalProperties: false }), result: Type.Array(ProbeCardSchema) }),
};
