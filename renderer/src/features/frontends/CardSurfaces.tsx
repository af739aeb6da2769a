// What an extension's frontend put on its own card: its settings tabs and what it mounted at the settings
// mount points, why its frontend was stopped, what the app refused it, and the frontend members it used that do
// nothing here.
import { useShallow } from 'zustand/react/shallow';
import { CARD_MOUNT_POINTS } from './frontends-store';
import { useFrontendsStore } from './frontends-context';
import { SurfaceFrame } from './SurfaceFrame';

/** A settings tab is as tall as its content, within what a card can hold (the frame scrolls past that). */
const cardHeight = (content: number) => Math.min(Math.max(content + 2, 48), 900);

export function CardSurfaces(props: { extensionId: string }) {
  const { extensionId } = props;
  const surfaces = useFrontendsStore(useShallow((s) => s.surfaces.filter((x) => x.extensionId === extensionId && (x.kind === 'settings' || (x.kind === 'mount' && CARD_MOUNT_POINTS.has(x.options.point ?? ''))))));
  const problem = useFrontendsStore((s) => s.problems[extensionId]);
  const inert = useFrontendsStore(useShallow((s) => s.inert[extensionId] ?? []));
  const refusals = useFrontendsStore(useShallow((s) => s.refusals[extensionId] ?? []));
  if (surfaces.length === 0 && !problem && inert.length === 0 && refusals.length === 0) return null;
  return (
    <div className="ext-card__frontend" data-testid="extension-frontend">
      {problem && (
        <p className="ext-card__fact ext-card__fact--warn" data-testid="extension-frontend-problem">
          {problem}
        </p>
      )}
      {inert.length > 0 && (
        <p className="ext-card__fact" data-testid="extension-frontend-inert">
          Its frontend uses what the Workbench has no place for: {inert.map((name, i) => [i > 0 && ', ', <code key={name}>{name}</code>])}
        </p>
      )}
      {refusals.length > 0 && (
        <div className="ext-card__fact ext-card__fact--warn" role="note" data-testid="extension-frontend-refusals">
          The app refused its frontend:
          <ul>
            {refusals.map((refusal) => (
              <li key={refusal}>{refusal}</li>
            ))}
          </ul>
        </div>
      )}
      {surfaces.map((surface) => (
        <section key={surface.key} className="ext-card__settings" aria-label={surface.title || 'Settings'} data-extension-id={extensionId}>
          {surface.title && <h4 className="ext-card__settings-title">{surface.title}</h4>}
          <SurfaceFrame
            extensionId={extensionId}
            surfaceId={surface.surfaceId}
            title={surface.title || `${extensionId} settings`}
            className="surface-frame--card"
            height={surface.contentHeight === null ? undefined : cardHeight(surface.contentHeight)}
          />
        </section>
      ))}
    </div>
  );
}
