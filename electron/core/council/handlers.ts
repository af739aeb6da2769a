// Contract handlers for council.*, runs.* and packs.*.
import fs from 'node:fs';
import path from 'node:path';
import type { Handlers } from '../../../shared/contract';
import { fail } from '../../../shared/errors';
import { PACK_LIMITS } from '../../../shared/types/council';
import type { PackStore } from '../packs/pack-store';
import type { CouncilService } from './council-service';
import { packToolQualifiedName } from './prompt-tool-source';
import { runTrace } from './run-store';

type CouncilMethod = Extract<keyof Handlers, `council.${string}` | `runs.${string}` | `packs.${string}`>;
type CouncilHandlers = Pick<Handlers, CouncilMethod>;

export function councilHandlers(council: CouncilService, packs: PackStore, now: () => number): CouncilHandlers {
  return {
    'council.get': () => council.view(),
    'council.update': ({ patch }) => council.update(patch),
    'council.addMember': (input) => council.addMember(input),
    'council.setMember': ({ memberId, patch }) => council.setMember(memberId, patch),
    'council.removeMember': ({ memberId }) => council.removeMember(memberId),
    'council.reorderMembers': ({ memberIds }) => council.reorderMembers(memberIds),
    'council.quickAddPack': (input) => council.quickAddPack(input),
    'council.testRoll': ({ seed }) => council.testRoll(seed),
    'council.run': (input) => council.run(input),
    'council.retryFailed': ({ runId }) => council.retryFailed(runId),
    'council.abort': ({ runId }) => ({ aborted: council.abort(runId) }),
    'council.inlineTools': () => council.inlineTools(),
    'council.profiles.list': () => council.profiles.list(),
    'council.profiles.save': ({ name }) => council.saveProfile(name),
    'council.profiles.load': ({ name }) => council.loadProfile(name),
    'council.profiles.remove': ({ name }) => ({ removed: council.profiles.remove(name) }),
    'council.profiles.export': ({ name }) => council.profiles.export(name),
    'council.profiles.import': ({ content, name }) => council.profiles.import(content, now(), name),
    'runs.list': ({ limit, chatId }) => council.runs.list(limit ?? 100, chatId),
    'runs.get': ({ runId }) => council.runs.get(runId),
    'runs.exportTrace': ({ runId }) => ({ fileName: `${runId}.trace.jsonl`, content: runTrace(council.runs.get(runId)) }),
    'packs.list': () => council.packSummaries(),
    'packs.import': ({ content, path: file, overwrite, keepBoth }, ctx) => {
      let stored;
      if (file !== undefined) {
        // Only a person at the CLI names host files; the renderer sends the file's text.
        if (ctx.origin !== 'cli' && ctx.origin !== 'test') fail('INVALID_INPUT', 'Import from a path is only available from the CLI; send the file content.', { path: '/path' });
        const resolved = path.resolve(file);
        let size: number;
        try {
          size = fs.statSync(resolved).size;
        } catch {
          return fail('NOT_FOUND', `No file ${resolved}.`, { path: '/path' });
        }
        const text = size > PACK_LIMITS.maxFileBytes ? '' : fs.readFileSync(resolved, 'utf8');
        stored = packs.import(text, { baseDir: path.dirname(resolved), overwrite: overwrite ?? false, keepBoth: keepBoth ?? false, bytes: size });
      } else if (content !== undefined) {
        stored = packs.import(content, { overwrite: overwrite ?? false, keepBoth: keepBoth ?? false });
      } else {
        return fail('INVALID_INPUT', 'Give the pack as content (JSON text) or path.', { path: '/content' });
      }
      return packs.summary(stored, packToolQualifiedName);
    },
    'packs.export': ({ id, format }) => packs.export(id, format ?? 'workbench'),
    'packs.remove': ({ id }) => ({ removed: packs.remove(id) }),
    'packs.avatar': ({ packId, itemId }) => ({ dataUrl: packs.avatarDataUrl(packId, itemId) }),
  };
}
