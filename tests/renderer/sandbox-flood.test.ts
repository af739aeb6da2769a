// @vitest-environment happy-dom
// A message widget's sandbox that floods its page (each "loaded" is answered with its whole HTML) is emptied and
// heard no more, and the page is told; one that talks at an ordinary pace is heard as before.
import { describe, expect, it } from 'vitest';
import { createSandbox, MAX_SANDBOX_MESSAGES_PER_SECOND } from '../../renderer/frame/sandbox-host';

const MARK = '__lumiverseSpindleSandbox';
// A detached frame has no window: messages from no window are the ones it is sent.
const say = (data: Record<string, unknown>) => window.dispatchEvent(new MessageEvent('message', { data: { ...data, [MARK]: MARK }, source: null }));

describe('a sandbox that floods', () => {
  it('past the limit in one second it is emptied, its handlers hear nothing more, and onFlood is called once', () => {
    let now = 1_000;
    let floods = 0;
    const sandbox = createSandbox(document, 'http://e-0000000000000001.localhost:1/__cw/sandbox.html', { html: '<p>hi</p>', onFlood: () => floods++, now: () => now });
    for (let i = 0; i < MAX_SANDBOX_MESSAGES_PER_SECOND; i++) say({ kind: 'loaded' });
    expect(floods).toBe(0);
    expect(sandbox.element.getAttribute('src')).not.toBeNull();
    say({ kind: 'loaded' });
    expect(floods).toBe(1);
    expect(sandbox.element.getAttribute('src')).toBeNull();
    now += 5_000;
    for (let i = 0; i < 10; i++) say({ kind: 'loaded' });
    expect(floods).toBe(1);
    sandbox.destroy();
  });

  it('the same number spread over seconds is an ordinary widget', () => {
    let now = 1_000;
    let floods = 0;
    const sandbox = createSandbox(document, 'http://e-0000000000000001.localhost:1/__cw/sandbox.html', { html: '<p>hi</p>', onFlood: () => floods++, now: () => now });
    for (let i = 0; i < MAX_SANDBOX_MESSAGES_PER_SECOND * 3; i++) {
      if (i % MAX_SANDBOX_MESSAGES_PER_SECOND === 0) now += 1_000;
      say({ kind: 'loaded' });
    }
    expect(floods).toBe(0);
    sandbox.destroy();
  });

  it('a fitted frame that grows without end is stopped past its growth limit; one whose height goes up and down is not', () => {
    let floods = 0;
    const url = 'http://e-0000000000000001.localhost:1/__cw/sandbox.html';
    const sandbox = createSandbox(document, url, { html: '<p>hi</p>', fit: true, minHeight: 0, maxGrowth: 5, onFlood: () => floods++ });
    // A pixel taller each time: the 6th step in a row stops it.
    for (let i = 1; i <= 5; i++) say({ kind: 'resize', height: i });
    expect(floods).toBe(0);
    say({ kind: 'resize', height: 6 });
    expect(floods).toBe(1);
    sandbox.destroy();

    floods = 0;
    const calm = createSandbox(document, url, { html: '<p>hi</p>', fit: true, maxGrowth: 5, onFlood: () => floods++ });
    // An animation: up five times, down, and again, for as long as it runs.
    for (let round = 0; round < 15; round++) for (const height of [10, 20, 30, 40, 50, 5]) say({ kind: 'resize', height });
    expect(floods).toBe(0);
    calm.destroy();
  });
});

describe('a sandbox told not to size itself (autoResize: false)', () => {
  it("is told so with its content, keeps its height on its own, and takes the height its widget asks for, within its bounds (Vishrun's hand-sized widgets)", () => {
    const sandbox = createSandbox(document, 'http://e-0000000000000001.localhost:1/__cw/sandbox.html', { html: '<p>hi</p>', autoResize: false, initialHeight: 1, minHeight: 1, maxHeight: 500 });
    // The frame's window, as the page in it would talk: what the host sends it, and what it says back.
    const sent: Array<Record<string, unknown>> = [];
    const page = { postMessage: (message: Record<string, unknown>) => sent.push(message) };
    Object.defineProperty(sandbox.element, 'contentWindow', { get: () => page });
    const fromPage = (data: Record<string, unknown>) => window.dispatchEvent(new MessageEvent('message', { data: { ...data, [MARK]: MARK }, source: page as unknown as Window }));
    expect(sandbox.element.style.height).toBe('1px');
    fromPage({ kind: 'loaded' });
    expect(sent).toEqual([expect.objectContaining({ kind: 'content', html: '<p>hi</p>', autoResize: false })]);
    const token = sent[0]!.token;
    fromPage({ kind: 'resize', token, height: 300 });
    expect(sandbox.element.style.height).toBe('300px');
    fromPage({ kind: 'resize', token, height: 9000 });
    expect(sandbox.element.style.height).toBe('500px');
    // Another page's token is not its own.
    fromPage({ kind: 'resize', token: 'not-its-token', height: 40 });
    expect(sandbox.element.style.height).toBe('500px');
    sandbox.destroy();
  });
});
