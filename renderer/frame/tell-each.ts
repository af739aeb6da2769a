// Handing something to an extension's own handlers: each hears it (its own copy, when `value` makes one), and one
// that throws is logged without keeping the others from hearing it.
export function tellEach<T>(handlers: Iterable<(value: T) => void>, value: () => T): void {
  for (const handler of [...handlers]) {
    try {
      handler(value());
    } catch (err) {
      console.error(err);
    }
  }
}
