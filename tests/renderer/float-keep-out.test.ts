// A float widget's first place is off the app's navigation and chat controls, moved the least way that stays in
// the window; a window too small to avoid them leaves it where it was asked.
import { describe, expect, it } from 'vitest';
import { outside } from '../../renderer/src/features/frontends/float-keep-out';

const window = { x: 0, y: 0, width: 1280, height: 800 };
const nav = { x: 0, y: 0, width: 200, height: 800 };
const composer = { x: 200, y: 700, width: 1080, height: 100 };

describe('a float widget’s first place', () => {
  it('a Lumiverse-tuned place over the navigation moves right of it', () => {
    expect(outside({ x: 20, y: 80, width: 120, height: 60 }, [nav, composer], window, 12)).toEqual({ x: 212, y: 80 });
  });

  it('the bottom right over the composer moves above it', () => {
    expect(outside({ x: 1100, y: 720, width: 160, height: 54 }, [nav, composer], window, 12)).toEqual({ x: 1100, y: 634 });
  });

  it('a corner over both moves off both', () => {
    const place = outside({ x: 150, y: 720, width: 100, height: 50 }, [nav, composer], window, 12);
    const box = { ...place, width: 100, height: 50 };
    for (const keep of [nav, composer]) expect(box.x >= keep.x + keep.width || box.x + box.width <= keep.x || box.y >= keep.y + keep.height || box.y + box.height <= keep.y).toBe(true);
  });

  it('stays where it was asked when the window leaves no room', () => {
    expect(outside({ x: 10, y: 10, width: 300, height: 300 }, [{ x: 0, y: 0, width: 320, height: 320 }], { x: 0, y: 0, width: 320, height: 320 }, 12)).toEqual({ x: 10, y: 10 });
  });
});
