// The local model engine's link: the host asks a process of its own (node-llama-cpp) to load one GGUF at a time and
// to generate from it, token chunks streamed before each answer. Declared once here; the engine checks every call and
// answer against it (electron/core/rpc/serve-table.ts), the host calls it through a client typed from it.
import { Type, type Static } from '@sinclair/typebox';
import { endpoint } from '../rpc/endpoint';

const ToolCallRef = Type.Object({ id: Type.String(), name: Type.String(), argsText: Type.String() });

export const EngineMessageSchema = Type.Object({
  role: Type.Union([Type.Literal('system'), Type.Literal('user'), Type.Literal('assistant'), Type.Literal('tool')]),
  content: Type.String(),
  toolCalls: Type.Optional(Type.Array(ToolCallRef)),
  toolCallId: Type.Optional(Type.String()),
  toolName: Type.Optional(Type.String()),
});

export const EngineToolSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 64 }),
  description: Type.String(),
  parameters: Type.Record(Type.String(), Type.Unknown()),
});

const LoadedModelSchema = Type.Object({
  path: Type.String(),
  name: Type.String(),
  architecture: Type.String(),
  /** The context the model was trained with, and the one this load made (fitted to memory). */
  trainContextSize: Type.Integer(),
  contextSize: Type.Integer(),
  sizeBytes: Type.Integer(),
  /** 'cuda', 'vulkan', 'metal', or false (CPU). */
  gpu: Type.Union([Type.String(), Type.Literal(false)]),
  /** The chat format taken from the GGUF (its template, or the wrapper node-llama-cpp recognised). */
  chatFormat: Type.String(),
  loadMs: Type.Number(),
});

export const GenerateChunkSchema = Type.Union([
  Type.Object({ type: Type.Literal('text'), text: Type.String() }),
  Type.Object({
    type: Type.Literal('tool-call'),
    id: Type.String(),
    name: Type.String(),
    argsText: Type.String(),
    /** Generated under a grammar built from the tool's input schema. */
    constrained: Type.Boolean(),
  }),
]);

/** Whether a model fits: all on the GPU, on the CPU (in RAM), or not at all; with the memory it needs. */
export const FitSchema = Type.Object({
  verdict: Type.Union([Type.Literal('gpu'), Type.Literal('cpu'), Type.Literal('no-fit')]),
  name: Type.String(),
  architecture: Type.String(),
  sizeBytes: Type.Integer(),
  trainContextSize: Type.Union([Type.Integer(), Type.Null()]),
  /** The context the estimate is for. */
  contextSize: Type.Integer(),
  gpuLayers: Type.Integer(),
  totalLayers: Type.Integer(),
  ramBytes: Type.Integer(),
  vramBytes: Type.Integer(),
  freeRamBytes: Type.Integer(),
  gpu: Type.Union([Type.String(), Type.Literal(false)]),
});

const UsageSchema = Type.Object({ inputTokens: Type.Integer(), outputTokens: Type.Integer() });

export const engineTable = {
  'engine.load': endpoint({
    description: 'Loads a GGUF (unloading any other model first); answers at once when it is the loaded one.',
    params: Type.Object({
      modelPath: Type.String({ minLength: 1 }),
      /** A context size to use; absent: the largest that fits, up to the model's training context and 8,192. */
      contextSize: Type.Optional(Type.Integer({ minimum: 256, maximum: 1_048_576 })),
      gpu: Type.Optional(Type.Boolean()),
    }),
    result: LoadedModelSchema,
    errors: ['LLM_MODEL_LOAD_FAILED', 'NOT_FOUND'],
  }),
  'engine.generate': endpoint({
    description: 'Generates a reply to the messages from the loaded model, streaming text and tool calls.',
    params: Type.Object({
      messages: Type.Array(EngineMessageSchema, { minItems: 1 }),
      tools: Type.Optional(Type.Array(EngineToolSchema)),
      /** 'auto': the model may call a tool; `{ name }`: it must call that one (its arguments under a grammar). */
      toolChoice: Type.Optional(Type.Union([Type.Literal('auto'), Type.Object({ name: Type.String() })])),
      temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
      topP: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
      maxTokens: Type.Optional(Type.Integer({ minimum: 1 })),
      stopSequences: Type.Optional(Type.Array(Type.String())),
      seed: Type.Optional(Type.Integer()),
      topK: Type.Optional(Type.Integer({ minimum: 1 })),
      frequencyPenalty: Type.Optional(Type.Number({ minimum: -2, maximum: 2 })),
      presencePenalty: Type.Optional(Type.Number({ minimum: -2, maximum: 2 })),
      /** The reply as JSON, generated under a grammar: any JSON, or JSON matching `schema`. Not with tools. */
      responseFormat: Type.Optional(Type.Object({ type: Type.Literal('json'), schema: Type.Optional(Type.Record(Type.String(), Type.Unknown())) })),
    }),
    chunk: GenerateChunkSchema,
    result: Type.Object({
      finishReason: Type.Union([Type.Literal('stop'), Type.Literal('length'), Type.Literal('tool-calls'), Type.Literal('abort')]),
      usage: UsageSchema,
      firstTokenMs: Type.Union([Type.Number(), Type.Null()]),
    }),
    errors: ['LLM_MODEL_LOAD_FAILED', 'LLM_REQUEST_REJECTED', 'LLM_BAD_RESPONSE'],
  }),
  'engine.fit': endpoint({
    description: "Reads a GGUF's header (a file, or a URL: only the header is fetched) and says whether it fits this machine.",
    params: Type.Object({ source: Type.String({ minLength: 1 }), contextSize: Type.Optional(Type.Integer({ minimum: 256 })) }),
    result: FitSchema,
    errors: ['LLM_MODEL_LOAD_FAILED'],
  }),
  'engine.unload': endpoint({
    description: 'Unloads the model, freeing its memory.',
    params: Type.Object({}),
    result: Type.Object({ unloaded: Type.Boolean() }),
    errors: [],
  }),
  'engine.status': endpoint({
    description: 'The loaded model, if any, and the process memory.',
    params: Type.Object({}),
    result: Type.Object({ model: Type.Union([LoadedModelSchema, Type.Null()]), residentBytes: Type.Integer() }),
    errors: [],
  }),
};

export type EngineTable = typeof engineTable;
export type EngineMessage = Static<typeof EngineMessageSchema>;
export type EngineTool = Static<typeof EngineToolSchema>;
export type GenerateChunk = Static<typeof GenerateChunkSchema>;
export type LoadedModel = Static<typeof LoadedModelSchema>;
export type GenerateParams = Static<EngineTable['engine.generate']['params']>;
export type ModelFit = Static<typeof FitSchema>;
