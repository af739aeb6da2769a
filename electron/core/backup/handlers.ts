// Contract handlers for backup.*.
import type { Handlers } from '../../../shared/contract';
import { exportBackup, importBackup, type BackupDeps } from './backup';

export function backupHandlers(deps: BackupDeps, sessionChanged: (sessionId: string) => void): Pick<Handlers, 'backup.export' | 'backup.import'> {
  return {
    'backup.export': async () => {
      const backup = await exportBackup(deps);
      const day = new Date(backup.createdAt).toISOString().slice(0, 10);
      return { fileName: `council-workbench-backup-${day}.json`, backup };
    },
    'backup.import': async ({ json, accept }) => {
      const { summary, sessionIds } = await importBackup(deps, json, accept ?? []);
      for (const id of sessionIds) sessionChanged(id);
      return summary;
    },
  };
}
