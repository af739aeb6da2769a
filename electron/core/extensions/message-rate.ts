// The flood cap's count: a sliding one-second window over the arrival times of a worker's unsolicited messages.

export class MessageRate {
  /** Arrival times of the last `max` messages, a ring: the one `max` places back must be a second old. */
  private readonly arrivals: Float64Array;
  private index = 0;

  constructor(max: number) {
    this.arrivals = new Float64Array(Math.max(1, max)).fill(-Infinity);
  }

  /** Counts one arrival at `now`; true when it is one more than `max` within a second. */
  exceeded(now: number): boolean {
    const oldest = this.arrivals[this.index]!;
    this.arrivals[this.index] = now;
    this.index = (this.index + 1) % this.arrivals.length;
    return now - oldest < 1000;
  }
}
