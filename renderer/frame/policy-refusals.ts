// What a frame's policy refuses without a word (an inline onclick, eval, WebAssembly, a request to the network), said
// once each on the extension's card, so the person and its author see why a button does nothing. Only what kind of
// thing it was, and for a request its origin, is said: never the page's text.

/** The card's words for one refusal, from Chromium's securitypolicyviolation event. */
export function policyRefusal(e: Pick<SecurityPolicyViolationEvent, 'effectiveDirective' | 'blockedURI'>): string {
  const directive = e.effectiveDirective;
  const blocked = e.blockedURI;
  if (blocked === 'inline') return directive === 'script-src-attr' ? 'an inline event handler (onclick=…): add listeners in code' : `inline code (${directive})`;
  if (blocked === 'eval') return 'eval or new Function';
  if (blocked === 'wasm-eval') return 'WebAssembly';
  let origin = 'a resource';
  try {
    origin = new URL(blocked).origin;
  } catch {
    // Not a URL (a scheme alone, or nothing): its kind is enough.
  }
  return `${origin} (${directive}): frames reach no network; a backend may, with cors_proxy`;
}

/** Distinct refusals said at most: a page that asks a thousand origins is not a thousand lines on its card. */
const MAX_SAID = 20;

/** Tells `say` each new refusal (up to MAX_SAID) in every document handed to `watch`, which answers its stop. */
export function reportPolicyRefusals(say: (what: string) => void): { watch(doc: Document): () => void } {
  const said = new Set<string>();
  const onViolation = (e: SecurityPolicyViolationEvent) => {
    const what = policyRefusal(e).slice(0, 160);
    if (said.has(what) || said.size >= MAX_SAID) return;
    said.add(what);
    say(what);
  };
  return {
    watch(doc) {
      doc.addEventListener('securitypolicyviolation', onViolation);
      return () => doc.removeEventListener('securitypolicyviolation', onViolation);
    },
  };
}
