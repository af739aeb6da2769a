// Sidecar LLM settings (seed 000 SidecarConfig): read, and a validated partial update.
import { Type } from '@sinclair/typebox';
import { SIDECAR_RANGES } from '../types/llm';
import { endpoint } from '../rpc/endpoint';

export const SidecarConfigSchema = Type.Object(
  {
    /** A connection's id, or an extension's sidecar endpoint: `extension:<extension id>/<endpoint id>`. */
    connectionProfileId: Type.String({ maxLength: 256 }),
    model: Type.String({ maxLength: 200 }),
    temperature: Type.Number({ minimum: SIDECAR_RANGES.temperature.min, maximum: SIDECAR_RANGES.temperature.max }),
    topP: Type.Number({ minimum: SIDECAR_RANGES.topP.min, maximum: SIDECAR_RANGES.topP.max }),
    maxTokens: Type.Integer({ minimum: SIDECAR_RANGES.maxTokens.min, maximum: SIDECAR_RANGES.maxTokens.max }),
  },
  { additionalProperties: false },
);

export const SidecarStateSchema = Type.Object({
  config: SidecarConfigSchema,
  /** A connection is chosen and exists. */
  configured: Type.Boolean(),
  /** Why it is not usable, when it is not. */
  problem: Type.Optional(Type.String()),
  /**
   * Running extensions' sidecar endpoints (Spindle registerSidecarEndpoint), offered beside the connections: `id` is
   * what connectionProfileId keeps to choose one.
   */
  endpoints: Type.Optional(Type.Array(Type.Object({ id: Type.String(), name: Type.String(), extensionName: Type.String() }))),
});

export const sidecarMethods = {
  'sidecar.get': endpoint({ description: 'The sidecar LLM settings and whether they are usable.', params: Type.Object({}, { additionalProperties: false }), result: SidecarStateSchema }),
  'sidecar.update': endpoint({ description: 'Change some sidecar settings; ranges: temperature 0–2, topP 0–1, maxTokens 1–65536.', params: Type.Object({ patch: Type.Partial(SidecarConfigSchema) }, { additionalProperties: false }), result: SidecarStateSchema }),
};
