/**
 * The code the host runs inside each fresh context before the plugin's own code. It takes the host's
 * Reference out of the global object into a closure no plugin code can see (the plugin's code is a separate
 * script, so it shares no scope with this one), captures the intrinsics it relies on before the plugin can
 * replace them, and returns the runner the host calls. Everything that crosses is a JSON string; ivm options
 * objects have a null prototype so a plugin's `Object.prototype` setters cannot change how a value crosses.
 *
 * Runner: `run(exportName, optionsJson, capabilityPathsJson, maxResultChars)` → JSON of
 * `{ ok: true, value }` or `{ ok: false, code, message }` (codes: compile | noExport | resultTooLarge | threw).
 * Capabilities reach the plugin as a frozen nested object of plain async functions, e.g. `http.fetch(url)`.
 *
 * The bootstrap is strict code on purpose: V8 hides strict frames from `fn.caller` and from the call sites
 * that `Error.prepareStackTrace` receives, so a plugin cannot get hold of the runner or its closure that way.
 */

/** Global through which the host hands its Reference in; deleted before any plugin code runs. */
export const HOST_GLOBAL = '__tagsonicHost';
/** Global the plugin script calls once to hand its module factory over; deleted by that call. */
export const DEFINE_GLOBAL = '__tagsonicDefine';

export const BOOTSTRAP_SOURCE = `(function () {
  'use strict';
  const g = globalThis;
  const host = g.${HOST_GLOBAL};
  delete g.${HOST_GLOBAL};
  const hostApply = host.apply.bind(host);
  const { stringify, parse } = JSON;
  const { freeze, hasOwn, defineProperty, keys } = Object;
  const apply = Reflect.apply;
  const ErrorCtor = Error;
  const StringCtor = String;
  const copyBoth = { __proto__: null, arguments: { __proto__: null, copy: true }, result: { __proto__: null, promise: true, copy: true } };
  let factory = null;
  defineProperty(g, '${DEFINE_GLOBAL}', {
    configurable: true,
    value: function define(f) { delete g.${DEFINE_GLOBAL}; factory = f; },
  });

  const call = async (path, args) => {
    const envelope = parse(await hostApply(undefined, [path, stringify(args)], copyBoth));
    if (envelope.ok === true) return envelope.value;
    throw new ErrorCtor(envelope.message);
  };

  const build = (paths) => {
    const root = {};
    for (let i = 0; i < paths.length; i++) {
      const path = paths[i];
      const parts = path.split('.');
      let node = root;
      for (let j = 0; j < parts.length - 1; j++) {
        if (!hasOwn(node, parts[j])) node[parts[j]] = {};
        node = node[parts[j]];
      }
      node[parts[parts.length - 1]] = async (...args) => call(path, args);
    }
    const deepFreeze = (o) => { for (const k of keys(o)) if (typeof o[k] === 'object') deepFreeze(o[k]); return freeze(o); };
    return deepFreeze(root);
  };

  // Built by hand: stringify({ ... }) would consult a toJSON the plugin put on Object.prototype.
  const fail = (code, message) => '{"ok":false,"code":"' + code + '","message":' + stringify(StringCtor(message)) + '}';

  return async function run(name, optionsJson, pathsJson, maxResultChars) {
    try {
      if (factory === null) return fail('compile', 'the plugin did not load');
      const module = { exports: {} };
      apply(factory, module.exports, [module, module.exports]);
      const exported = module.exports;
      const usable = exported !== null && (typeof exported === 'object' || typeof exported === 'function');
      const fn = usable && hasOwn(exported, name) ? exported[name] : undefined;
      if (typeof fn !== 'function') return fail('noExport', 'the plugin exports no function named ' + name);
      const value = await apply(fn, exported, [parse(optionsJson), build(parse(pathsJson))]);
      let text = value === undefined ? 'null' : stringify(value);
      if (text === undefined) text = 'null';
      if (text.length > maxResultChars) return fail('resultTooLarge', 'the result is larger than ' + maxResultChars + ' characters of JSON');
      return '{"ok":true,"value":' + text + '}';
    } catch (error) {
      let message;
      try {
        message = StringCtor(error instanceof ErrorCtor ? error.message : error);
      } catch {
        message = 'the plugin threw a value that cannot be shown';
      }
      return fail('threw', message.slice(0, 2000));
    }
  };
})()`;

/** Wraps a plugin's CommonJS-style code so that loading it only hands its factory to the bootstrap. */
export const wrapPluginCode = (code: string) => `${DEFINE_GLOBAL}(function (module, exports) {${code}\n});`;
