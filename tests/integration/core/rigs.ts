// Chat rigs a test opens (closed after each test), and a call that must succeed.
import { chatRig, type ChatRig } from '../chat/helpers';

export function rigSet() {
  const open: ChatRig[] = [];
  return {
    open,
    async rig(dataDir?: string): Promise<ChatRig> {
      const r = await chatRig(dataDir ? { dataDir } : {});
      open.push(r);
      return r;
    },
    /** Closes a rig before the test ends (a restart on the same folder). */
    async close(r: ChatRig): Promise<void> {
      open.splice(open.indexOf(r), 1);
      await r.close();
    },
    async closeAll(): Promise<void> {
      for (const r of open.splice(0)) await r.close();
    },
  };
}

/** The value of a call that must succeed (its error, in full, otherwise). */
export async function ok<T>(r: ChatRig, method: string, input: unknown): Promise<T> {
  const result = await r.call(method, input);
  if (!result.ok) throw new Error(`${method}: ${JSON.stringify(result.error)}`);
  return result.value as T;
}
