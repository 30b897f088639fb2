/**
 * The code the host runs inside each fresh context before the plugin's own code. It takes the host's
 * Reference out of the global object into a closure no plugin code can see (the plugin's code is a separate
 * script, so it shares no scope with this one), captures the intrinsics it relies on before the plugin can
 * replace them, and returns the runner the host calls. Everything that crosses is a JSON string, plus copies of
 * the Uint8Arrays it referenced (see json.ts); ivm options
 * objects have a null prototype so a plugin's `Object.prototype` setters cannot change how a value crosses.
 *
 * Runner: `run(exportName, optionsJson, optionsBytes, capabilityShapeJson, maxResultChars, bytesMarker)` →
 * `[json, bytes]`, the JSON of `{ ok: true, value }` or
 * `{ ok: false, code, message, pluginCode?, pluginDetails? }` (codes: compile | noExport | resultTooLarge | threw;
 * `pluginCode` and `pluginDetails` are the `code` and `details` of what the plugin threw, unchecked). Capabilities reach the plugin as a frozen nested object of plain
 * async functions and constants, e.g. `http.fetch(url)`, `http.baseUrl`. The exports are `module.exports`, or its
 * `default` when that holds them (TypeScript's `export default`, bundled as CommonJS).
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
  const { freeze, hasOwn, defineProperty, keys, getPrototypeOf, getOwnPropertyDescriptor } = Object;
  const apply = Reflect.apply;
  const ErrorCtor = Error;
  const StringCtor = String;
  const isObjectValue = (o) => o !== null && typeof o === 'object';
  // Bytes: a Uint8Array is recognised by its internal slot (TypedArray's toStringTag getter, captured now),
  // not by instanceof or a property the plugin could fake, and copied before it crosses.
  const U8 = Uint8Array;
  const typedArrayTag = getOwnPropertyDescriptor(getPrototypeOf(U8.prototype), Symbol.toStringTag).get;
  const isBytes = (v) => isObjectValue(v) && apply(typedArrayTag, v, []) === 'Uint8Array';
  let marker = null; // this invocation's bytes marker, from the host (see json.ts)
  const encode = (value) => {
    const bytes = [];
    let size = 0;
    const text = stringify(value, function (key, v) {
      const raw = this[key];
      if (!isBytes(raw)) return v;
      const copy = new U8(raw);
      const index = bytes.length;
      defineProperty(bytes, index, { __proto__: null, value: copy, writable: true, enumerable: true, configurable: true });
      size += copy.length;
      return { __proto__: null, [marker]: index };
    });
    return { text: text === undefined ? 'null' : text, bytes, size };
  };
  const decode = (text, bytes) => parse(text, function (key, v) {
    return isObjectValue(v) && hasOwn(v, marker) ? bytes[v[marker]] : v;
  });
  const copyBoth = { __proto__: null, arguments: { __proto__: null, copy: true }, result: { __proto__: null, promise: true, copy: true } };
  let factory = null;
  defineProperty(g, '${DEFINE_GLOBAL}', {
    configurable: true,
    value: function define(f) { delete g.${DEFINE_GLOBAL}; factory = f; },
  });

  // A host failure with a code arrives as the SDK's PluginError would look across realms (name and code), so
  // the plugin's isPluginError() recognises it and the plugin can catch, inspect and rethrow it.
  // Host calls of this invocation, awaited (settled) before its result goes back: a fire-and-forget call such as
  // caps.log.info(...) that the plugin does not await still reaches the host before the invocation ends.
  let pending = [];
  const call = async (path, args) => {
    const out = encode(args);
    const sent = hostApply(undefined, [path, out.text, out.bytes], copyBoth);
    defineProperty(pending, pending.length, { __proto__: null, value: sent, writable: true, enumerable: true, configurable: true });
    const reply = await sent;
    const envelope = decode(reply[0], reply[1]);
    if (envelope.ok === true) return envelope.value;
    const error = new ErrorCtor(envelope.message);
    if (typeof envelope.code === 'string') {
      // Defined, not assigned: a plugin that froze Error.prototype must still get the code.
      defineProperty(error, 'name', { __proto__: null, value: 'PluginError', writable: true, configurable: true });
      defineProperty(error, 'code', { __proto__: null, value: envelope.code, writable: true, enumerable: true, configurable: true });
    }
    throw error;
  };

  // shape: { functions: ['http.fetch', ...], values: [['http.baseUrl', 'http://…'], ...] }
  const build = (shape) => {
    const root = {};
    const place = (path, leaf) => {
      const parts = path.split('.');
      let node = root;
      for (let j = 0; j < parts.length - 1; j++) {
        if (!hasOwn(node, parts[j])) node[parts[j]] = {};
        node = node[parts[j]];
      }
      node[parts[parts.length - 1]] = leaf;
    };
    for (let i = 0; i < shape.functions.length; i++) {
      const path = shape.functions[i];
      place(path, async (...args) => call(path, args));
    }
    for (let i = 0; i < shape.values.length; i++) place(shape.values[i][0], shape.values[i][1]);
    const deepFreeze = (o) => { for (const k of keys(o)) if (typeof o[k] === 'object' && o[k] !== null) deepFreeze(o[k]); return freeze(o); };
    return deepFreeze(root);
  };

  // Built by hand: stringify({ ... }) would consult a toJSON the plugin put on Object.prototype.
  // pluginCode: the code of what the plugin threw (an SDK PluginError's), for the host to check against its list.
  // pluginDetails: the JSON text of its details (the SDK promises they cross), for the host to parse and cap.
  const fail = (code, message, pluginCode, pluginDetails) => '{"ok":false,"code":"' + code + '","message":' + stringify(StringCtor(message)) +
    (typeof pluginCode === 'string' ? ',"pluginCode":' + stringify(pluginCode.slice(0, 100)) : '') +
    (typeof pluginDetails === 'string' ? ',"pluginDetails":' + pluginDetails : '') + '}';

  const settlePending = async () => {
    for (let i = 0; i < pending.length; i++) {
      try { await pending[i]; } catch { /* its caller saw (or ignored) the failure */ }
    }
  };

  return async function run(name, optionsJson, optionsBytes, shapeJson, maxResultChars, bytesMarker) {
    marker = bytesMarker;
    pending = [];
    const result = await runExport(name, optionsJson, optionsBytes, shapeJson, maxResultChars);
    await settlePending();
    return result;
  };

  async function runExport(name, optionsJson, optionsBytes, shapeJson, maxResultChars) {
    try {
      if (factory === null) return [fail('compile', 'the plugin did not load'), []];
      const module = { exports: {} };
      apply(factory, module.exports, [module, module.exports]);
      const isObject = (o) => o !== null && (typeof o === 'object' || typeof o === 'function');
      let exported = module.exports;
      // TypeScript's \`export default defineTagSource({...})\`, bundled as CommonJS, lands on exports.default.
      if (isObject(exported) && !hasOwn(exported, name) && hasOwn(exported, 'default') && isObject(exported.default)) {
        exported = exported.default;
      }
      const fn = isObject(exported) && hasOwn(exported, name) ? exported[name] : undefined;
      if (typeof fn !== 'function') return [fail('noExport', 'the plugin exports no function named ' + name), []];
      const value = await apply(fn, exported, [decode(optionsJson, optionsBytes), build(parse(shapeJson))]);
      const out = encode(value);
      if (out.text.length + out.size > maxResultChars) return [fail('resultTooLarge', 'the result is larger than ' + maxResultChars + ' characters of JSON and bytes'), []];
      return ['{"ok":true,"value":' + out.text + '}', out.bytes];
    } catch (error) {
      let message;
      let pluginCode;
      let pluginDetails;
      try {
        message = StringCtor(error instanceof ErrorCtor ? error.message : error);
        const code = isObjectValue(error) ? error.code : undefined;
        if (typeof code === 'string') pluginCode = code;
      } catch {
        message = 'the plugin threw a value that cannot be shown';
      }
      try {
        const details = isObjectValue(error) ? error.details : undefined;
        // Only an object's JSON: stringify's output is one JSON value, so it cannot break out of the envelope.
        const text = isObjectValue(details) ? stringify(details) : undefined;
        if (typeof text === 'string' && text[0] === '{' && text.length <= 4096) pluginDetails = text;
      } catch {
        // details that cannot be copied are left out
      }
      return [fail('threw', message.slice(0, 2000), pluginCode, pluginDetails), []];
    }
  }
})()`;

/** Wraps a plugin's CommonJS-style code so that loading it only hands its factory to the bootstrap. */
export const wrapPluginCode = (code: string) => `${DEFINE_GLOBAL}(function (module, exports) {${code}\n});`;
