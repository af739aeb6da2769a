// The registry's timer port is the core's one Timers port.
export { systemTimers, type Timers } from '../ports';
