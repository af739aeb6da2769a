// @vitest-environment happy-dom
// The boxes a runtime page's body layer reports, capped: past the cap, what takes the pointer and what does not are
// kept apart, so a full-window layer that takes no pointer never becomes a box that takes it.
import { describe, expect, it } from 'vitest';
import { MAX_LAYER_BOXES } from '../../shared/frames/frame-contract';
import { cappedBoxes, type LayerBox } from '../../renderer/frame/body-layer';

const badge = (i: number): LayerBox => ({ x: 10 * i, y: 10, width: 8, height: 8 });
const RAIN: LayerBox = { x: 0, y: 0, width: 1280, height: 800, passive: true };

describe('capped body-layer boxes', () => {
  it('under the cap, as measured', () => {
    const boxes = [badge(1), RAIN];
    expect(cappedBoxes(boxes)).toBe(boxes);
  });

  it('past the cap, rain among small pieces that take the pointer stays passive, and the rest that take it are one box', () => {
    const boxes = [...Array.from({ length: MAX_LAYER_BOXES }, (_, i) => badge(i)), RAIN, badge(40)];
    const reported = cappedBoxes(boxes);
    expect(reported).toHaveLength(MAX_LAYER_BOXES);
    expect(reported.slice(0, MAX_LAYER_BOXES - 2)).toEqual(boxes.slice(0, MAX_LAYER_BOXES - 2));
    const [active, passive] = reported.slice(MAX_LAYER_BOXES - 2);
    expect(active).toEqual({ x: 10 * (MAX_LAYER_BOXES - 2), y: 10, width: 10 * 40 + 8 - 10 * (MAX_LAYER_BOXES - 2), height: 8 });
    expect(passive).toEqual(RAIN);
    // Nothing that takes the pointer is as large as the window.
    expect(reported.filter((b) => !b.passive).every((b) => b.width < RAIN.width)).toBe(true);
  });

  it('past the cap with only pieces that take the pointer, the rest are one box', () => {
    const boxes = Array.from({ length: MAX_LAYER_BOXES + 3 }, (_, i) => badge(i));
    const reported = cappedBoxes(boxes);
    expect(reported).toHaveLength(MAX_LAYER_BOXES - 1);
    expect(reported.at(-1)).toEqual({ x: 10 * (MAX_LAYER_BOXES - 2), y: 10, width: 10 * (MAX_LAYER_BOXES + 2) + 8 - 10 * (MAX_LAYER_BOXES - 2), height: 8 });
  });
});
