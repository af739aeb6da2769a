// The worker's channel under Electron (parentPort): a message structured clone refuses is said to be refused, so the
// spindle call it carried answers at once instead of waiting for an answer that cannot come.
import { describe, expect, it } from 'vitest';
import { utilityPort } from '../../../electron/worker/host-port';
import { createHostRequests } from '../../../electron/worker/host-requests';

describe('the utilityProcess channel', () => {
  it('a call whose params cannot be cloned rejects INVALID_INPUT; a closed port only drops the message', async () => {
    const posted: unknown[] = [];
    let failure: Error | null = null;
    const port = utilityPort({
      on: () => undefined,
      postMessage: (message) => {
        if (failure) throw failure;
        posted.push(message);
      },
    });
    const requests = createHostRequests((message, maxChars) => port.send(message, { maxChars }));
    failure = new DOMException('function could not be cloned', 'DataCloneError');
    await expect(requests.call('chats.update', { args: ['c1', { onDone: () => 1 }] })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('could not be cloned') });
    failure = new Error('port closed');
    expect(port.send({ type: 'log', level: 'info', message: 'x' })).toEqual({ ok: true });
    failure = null;
    expect(port.send({ type: 'log', level: 'info', message: 'y' })).toEqual({ ok: true });
    expect(posted).toEqual([{ type: 'log', level: 'info', message: 'y' }]);
  });
});
