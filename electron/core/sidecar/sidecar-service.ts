// The sidecar LLM (seed 000 SidecarConfig): settings read and validated here, and the council's SidecarPort over ConnectionService + LlmClient.
import { HostFailure } from '../../../shared/errors';
import type { Settings } from '../../../shared/settings';
import type { ConnectionProfile, SidecarConfig } from '../../../shared/types/llm';
import type { PlannedArguments, SidecarCompleteInput, SidecarPlanInput, SidecarPort } from '../council/sidecar-port';
import { SIDECAR_NOT_CONFIGURED } from '../council/sidecar-port';
import type { MethodOutput } from '../../../shared/contract';
import type { LlmClient } from '../llm/client';
import { sidecarRequest, validateSidecarConfig, withSidecarDefaults } from '../llm/sidecar-config';
import { ENDPOINT_PREFIX, SidecarEndpoints } from './extension-endpoints';

export interface SidecarServiceDeps {
  settings: () => Settings;
  updateSettings: (patch: Record<string, unknown>) => Promise<Settings>;
  /** The full (key-free) profile; throws HostFailure NOT_FOUND. */
  profile: (id: string) => ConnectionProfile;
  llm: LlmClient;
}

export type SidecarState = MethodOutput<'sidecar.get'>;

export class SidecarService implements SidecarPort {
  /** Extensions' sidecar endpoints, offered beside the connections. */
  readonly endpoints = new SidecarEndpoints();

  constructor(private readonly deps: SidecarServiceDeps) {}

  config(): SidecarConfig {
    return withSidecarDefaults(this.deps.settings().sidecarSettings ?? {});
  }

  state(): SidecarState {
    const config = this.config();
    const problem = this.problem(config);
    const endpoints = this.endpoints.list();
    return { config, configured: problem === undefined, ...(problem ? { problem } : {}), ...(endpoints.length ? { endpoints } : {}) };
  }

  async update(patch: Partial<SidecarConfig>): Promise<SidecarState> {
    const checked = validateSidecarConfig({ ...this.config(), ...patch });
    if (!checked.ok) throw new HostFailure(checked.error);
    await this.deps.updateSettings({ sidecarSettings: checked.value });
    return this.state();
  }

  isConfigured(): boolean {
    return this.problem(this.config()) === undefined;
  }

  /** Connection id and model: concurrent calls are limited per key. Never key material. */
  connectionKey(): string {
    const config = this.config();
    if (!config.connectionProfileId) return 'none';
    if (config.connectionProfileId.startsWith(ENDPOINT_PREFIX)) return `${config.connectionProfileId}:${config.model}`;
    try {
      const profile = this.deps.profile(config.connectionProfileId);
      return `${profile.id}:${config.model || profile.defaultModel}`;
    } catch {
      return 'none';
    }
  }

  async complete(input: SidecarCompleteInput, signal: AbortSignal): Promise<string> {
    const { config, profile, transport } = this.resolve();
    const request = sidecarRequest(config, profile, [
      ...(input.system ? [{ role: 'system' as const, content: input.system }] : []),
      { role: 'user' as const, content: input.prompt },
    ]);
    if (input.maxTokens !== undefined) request.maxTokens = Math.max(1, Math.min(request.maxTokens ?? input.maxTokens, input.maxTokens));
    const completion = await this.deps.llm.complete(profile, request, { signal, ...transport });
    return completion.text;
  }

  async planArguments(input: SidecarPlanInput, signal: AbortSignal): Promise<PlannedArguments> {
    const { config, profile, transport } = this.resolve();
    return this.deps.llm.planArguments(
      profile,
      { system: input.system, prompt: input.prompt, tool: input.tool, model: config.model || profile.defaultModel, maxTokens: config.maxTokens, ...(input.validate ? { validate: input.validate } : {}) },
      { signal, ...transport },
    );
  }

  /** `transport`: an extension's endpoint in place of the network. */
  private resolve(): { config: SidecarConfig; profile: ConnectionProfile; transport?: { fetch: typeof fetch } } {
    const config = this.config();
    if (!config.connectionProfileId) throw new HostFailure(SIDECAR_NOT_CONFIGURED);
    const endpoint = this.endpoints.resolve(config.connectionProfileId);
    if (endpoint) return { config, profile: endpoint.profile, transport: { fetch: endpoint.fetch } };
    let profile: ConnectionProfile;
    try {
      profile = this.deps.profile(config.connectionProfileId);
    } catch {
      throw new HostFailure({ ...SIDECAR_NOT_CONFIGURED, message: `The sidecar connection ${config.connectionProfileId} no longer exists.` });
    }
    return { config, profile };
  }

  private problem(config: SidecarConfig): string | undefined {
    if (!config.connectionProfileId) return 'No sidecar connection is chosen.';
    try {
      if (this.endpoints.resolve(config.connectionProfileId)) return undefined;
    } catch (err) {
      return (err as HostFailure).error.message;
    }
    try {
      const profile = this.deps.profile(config.connectionProfileId);
      if (!config.model && !profile.defaultModel) return `The connection ${profile.name} has no default model; choose a model.`;
    } catch {
      return `The sidecar connection ${config.connectionProfileId} no longer exists.`;
    }
    return undefined;
  }
}
