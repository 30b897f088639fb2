/**
 * A hidden slot on plain objects: a value attached to an object without changing what the object looks
 * like — not enumerable, not copied by a spread, invisible to JSON — at the cost of adding one property
 * (`Object.defineProperty` with a symbol is ~15× slower and a WeakMap ~60× slower, which mattered when
 * every song of every list response was marked).
 *
 * It is a class private field installed on an existing object: a base constructor that returns the
 * object makes the subclass's field initialiser run on that object.
 */
export interface HiddenSlot<V> {
  /** Stores `value` on `target` (replacing an earlier one) and returns `target`. */
  set<T extends object>(target: T, value: V): T;
  get(target: object): V | undefined;
}

export function hiddenSlot<V>(): HiddenSlot<V> {
  class Adopt {
    constructor(target: object) {
      return target as Adopt;
    }
  }
  class Slot extends Adopt {
    #value: V;
    constructor(target: object, value: V) {
      super(target);
      this.#value = value;
    }
    static put(target: object, value: V): void {
      if (#value in target) (target as Slot).#value = value;
      else new Slot(target, value);
    }
    static read(target: object): V | undefined {
      return #value in target ? (target as Slot).#value : undefined;
    }
  }
  return {
    set: (target, value) => {
      Slot.put(target, value);
      return target;
    },
    get: (target) => Slot.read(target),
  };
}
