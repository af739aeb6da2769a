// The message box as extensions' frames see it (their stand-in of Lumiverse's InputArea: renderer/frame/lumiverse-composer.ts).
// Above the box, room for what each extension's code put in its stand-in (a toolbar, a panel), as tall as that draws:
// its runtime frame shows it there, so it covers neither the box nor the chat. The box's state and each extension's
// room go into the frontends store (the frames hear them: composer-news.ts), with what the box does for their clicks.
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useFrontends, useFrontendsStore } from './frontends-context';
import type { ComposerControl, ComposerShown } from './frontends-store';
import { watchLayout } from './layout-watch';

type Place = ComposerShown['base'];

// Down to whole pixels, so a piece placed there never reaches past its room into the box.
const placeOf = (r: DOMRect): Place => ({ x: Math.ceil(r.left), y: Math.floor(r.top), width: Math.floor(r.width) });
const samePlace = (a: Place | undefined, b: Place) => a !== undefined && a.x === b.x && a.y === b.y && a.width === b.width;

export function ComposerStandIns(props: { state: ComposerShown['state']; control: ComposerControl }) {
  const { store } = useFrontends();
  const rooms = Object.entries(useFrontendsStore((s) => s.composerRooms))
    .filter(([, height]) => height > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const ref = useRef<HTMLDivElement>(null);
  const latest = useRef(props);
  latest.current = props;
  // One control for the box's life: each call goes to what the box does now.
  const control = useMemo<ComposerControl>(
    () => ({
      setDraft: (text) => latest.current.control.setDraft(text),
      send: (text) => latest.current.control.send(text),
      stop: () => latest.current.control.stop(),
      regenerate: () => latest.current.control.regenerate(),
      continue: () => latest.current.control.continue(),
    }),
    [],
  );

  /** Where the box's room and each extension's part of it are now, and what the box holds: into the store when changed. */
  const publish = () => {
    const el = ref.current;
    if (!el) return;
    const base = placeOf(el.getBoundingClientRect());
    const places: Record<string, Place> = {};
    for (const slot of el.children) {
      const id = (slot as HTMLElement).dataset.extensionId;
      if (id) places[id] = placeOf(slot.getBoundingClientRect());
    }
    const now = store.getState().composer;
    const state = latest.current.state;
    const unchanged =
      now !== null &&
      samePlace(now.base, base) &&
      Object.keys(places).length === Object.keys(now.places).length &&
      Object.entries(places).every(([id, place]) => samePlace(now.places[id], place)) &&
      (Object.keys(state) as Array<keyof typeof state>).every((key) => now.state[key] === state[key]);
    if (!unchanged) store.setState({ composer: { state, places, base, control } });
  };

  // After every render (a keystroke, a reply starting, a room growing) and whenever the layout moves the box.
  useLayoutEffect(publish);
  useEffect(() => {
    const stop = watchLayout([ref.current?.closest('.composer')], publish);
    return () => {
      stop();
      store.setState({ composer: null });
    };
  }, [store]);

  return (
    <div ref={ref} className="composer__stand-ins" aria-hidden="true" data-testid="composer-stand-ins">
      {rooms.map(([id, height]) => (
        <div key={id} data-extension-id={id} style={{ height }} />
      ))}
    </div>
  );
}
