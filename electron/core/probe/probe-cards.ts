// The tool-calling probe as the host offers it: runs the probe on a connection's model (one run per connection at a
// time) and keeps the latest capability card per connection and model in <data-dir>/probes.json.
import fs from 'node:fs';
import path from 'node:path';
import { HostFailure } from '../../../shared/errors';
import type { ConnectionProfile } from '../../../shared/types/llm';
import type { ProbeCard } from '../../../shared/types/local-models';
import type { LlmClient } from '../llm/client';
import { writeFileAtomicSync } from '../util/atomic-write';
import { probeToolCalling } from './tool-probe';

export interface ProbeCardsOptions {
  dataDir: string;
  llm: LlmClient;
  profile(id: string): ConnectionProfile;
  onProgress(connectionId: string, done: number, total: number): void;
}

export class ProbeCards {
  private readonly file: string;
  private readonly running = new Set<string>();

  constructor(private readonly options: ProbeCardsOptions) {
    this.file = path.join(options.dataDir, 'probes.json');
  }

  list(): ProbeCard[] {
    try {
      return (JSON.parse(fs.readFileSync(this.file, 'utf8')) as { cards?: ProbeCard[] }).cards ?? [];
    } catch {
      return [];
    }
  }

  async probe(connectionId: string, model?: string, maxTokens?: number): Promise<ProbeCard> {
    const profile = this.options.profile(connectionId);
    const chosen = model || profile.defaultModel;
    if (!chosen) throw new HostFailure({ code: 'INVALID_INPUT', message: `The connection ${profile.name} has no default model; name the model to probe.`, path: '/model' });
    if (this.running.has(connectionId)) throw new HostFailure({ code: 'CONFLICT', message: `The probe is already running on ${profile.name}.` });
    this.running.add(connectionId);
    try {
      const card = await probeToolCalling({ llm: this.options.llm, profile, model: chosen, onProgress: (done, total) => this.options.onProgress(connectionId, done, total), ...(maxTokens ? { maxTokens } : {}) });
      const others = this.list().filter((c) => !(c.connectionId === card.connectionId && c.model === card.model));
      writeFileAtomicSync(this.file, `${JSON.stringify({ cards: [...others, card] }, null, 2)}\n`);
      return card;
    } finally {
      this.running.delete(connectionId);
    }
  }
}
