// What the sidecar is for, in a few sentences (shown under the form, and alone before any connection exists).

export function SidecarExplainer() {
  return (
    <section className="card sidecar-explainer" aria-label="What the sidecar does">
      <h2 className="card__title">What the sidecar does</h2>
      <p className="card__lead">
        The sidecar is a second model, separate from the chat’s main connection. When the council deliberates in sidecar mode, each active member’s
        prompt tools run on it, and it plans the arguments before an extension tool is called. The main model then reads the deliberation it wrote.
        A small, fast, cheap model is usually enough; a low temperature keeps tool answers steady.
      </p>
    </section>
  );
}
