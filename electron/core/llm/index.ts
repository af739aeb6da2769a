// Public surface of the LLM layer: one client over the AI SDK, our events, sidecar settings.
export { LlmClient, PLAN_MAX_TEMPERATURE, type LlmCallOptions, type LlmClientOptions, type PlanArgumentsInput } from './client';
export { classifyError, type ClassifiedError } from '../connections/provider-errors';
export { KEY_REQUIRED, noRedirectFetch, ollamaRoot } from '../connections/providers';
export { sidecarRequest, validateSidecarConfig, withSidecarDefaults } from './sidecar-config';
export { ToolCallSequencer } from './tool-call-sequencer';
