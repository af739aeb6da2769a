// @vitest-environment happy-dom
// What a frame's policy refused, in the card's words (frame/policy-refusals.ts): its kind, for a request its origin
// only, each said once however often it happens, from every document watched, until that document is let go.
import { describe, expect, it } from 'vitest';
import { policyRefusal, reportPolicyRefusals } from '../../renderer/frame/policy-refusals';

const violation = (effectiveDirective: string, blockedURI: string) => Object.assign(new Event('securitypolicyviolation'), { effectiveDirective, blockedURI });

describe("a frame's policy refusals", () => {
  it('names the kind of thing refused, and of a request only its origin', () => {
    expect(policyRefusal({ effectiveDirective: 'script-src-attr', blockedURI: 'inline' })).toBe('an inline event handler (onclick=…): add listeners in code');
    expect(policyRefusal({ effectiveDirective: 'style-src-elem', blockedURI: 'inline' })).toBe('inline code (style-src-elem)');
    expect(policyRefusal({ effectiveDirective: 'script-src', blockedURI: 'eval' })).toBe('eval or new Function');
    expect(policyRefusal({ effectiveDirective: 'script-src', blockedURI: 'wasm-eval' })).toBe('WebAssembly');
    const request = policyRefusal({ effectiveDirective: 'connect-src', blockedURI: 'https://api.example.com/v1/chat?text=my%20secret%20plan' });
    expect(request).toBe('https://api.example.com (connect-src): frames reach no network; a backend may, with cors_proxy');
    expect(policyRefusal({ effectiveDirective: 'img-src', blockedURI: 'data' })).toBe('a resource (img-src): frames reach no network; a backend may, with cors_proxy');
  });

  it('says each once, from every document watched, and nothing after a document is let go', () => {
    const said: string[] = [];
    const refusals = reportPolicyRefusals((what) => said.push(what));
    const runtime = document.implementation.createHTMLDocument('runtime');
    const surface = document.implementation.createHTMLDocument('surface');
    refusals.watch(runtime);
    const stop = refusals.watch(surface);
    runtime.dispatchEvent(violation('script-src-attr', 'inline'));
    surface.dispatchEvent(violation('script-src-attr', 'inline'));
    surface.dispatchEvent(violation('connect-src', 'https://api.example.com/a'));
    surface.dispatchEvent(violation('connect-src', 'https://api.example.com/b'));
    stop();
    surface.dispatchEvent(violation('script-src', 'eval'));
    expect(said).toEqual(['an inline event handler (onclick=…): add listeners in code', 'https://api.example.com (connect-src): frames reach no network; a backend may, with cors_proxy']);
  });

  it('says twenty different ones at most', () => {
    const said: string[] = [];
    const doc = document.implementation.createHTMLDocument('runtime');
    reportPolicyRefusals((what) => said.push(what)).watch(doc);
    for (let i = 0; i < 50; i++) doc.dispatchEvent(violation('connect-src', `https://host${i}.example/`));
    expect(said).toHaveLength(20);
  });
});
