import { createCipheriv, createDecipheriv, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Collection, Store } from '../store/port.ts';
import { newId } from '../ids.ts';
import { ExpiringMap } from '../expiring-map.ts';
import { invalid, notFound } from '../errors/errors.ts';
import type { UserDoc, Users } from './users.ts';

/**
 * Subsonic credentials. The Subsonic protocol's token auth (`t = md5(password + salt)`) needs the
 * plain password on the server, so it cannot be a scrypt hash: it is stored encrypted with
 * AES-256-GCM under `secrets.subsonicKey`, apart from (and never equal in purpose to) the login
 * password. API keys (OpenSubsonic `apiKey`) are random, shown once and stored as sha256.
 * Usernames always match exactly. Nothing here logs or returns a secret except `createApiKey`'s result.
 */
export interface EncryptedSecret {
  /** base64 of iv (12) ‖ tag (16) ‖ ciphertext. */
  box: string;
}

export interface ApiKeyDoc {
  _id: string;
  userId: string;
  username: string;
  name: string;
  /** sha256 hex of the key. */
  sha256: string;
  /** The first characters, to tell keys apart in a list. */
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  [key: string]: unknown;
}

export interface ApiKeyInfo {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

const KEY_PREFIX = 'tsk_';
const MAX_SUBSONIC_PASSWORD = 256;
const API_KEY_NAME = /^[\p{L}\p{N} _.@:()-]{1,64}$/u;
const AAD = Buffer.from('tagsonic subsonic password v1');
/**
 * Every Subsonic request authenticates; looking the account up and decrypting its password each time
 * cost more than many requests themselves. Found passwords are kept this long; a password that does not
 * match the cached one is checked against the store, so a password just set anywhere works at once.
 * Changes made through this object or to the accounts of its `Users` apply at once; an old password
 * replaced elsewhere (the CLI, another gateway of a distributed deployment) stops working within this delay.
 */
const LOOKUP_TTL_MS = 2_000;
const MAX_LOOKUPS = 1_000;

export class SubsonicCredentials {
  private readonly users: Users;
  private readonly accounts: Collection<UserDoc>;
  private readonly keys: Collection<ApiKeyDoc>;
  private readonly key: Buffer;
  private readonly lookups = new ExpiringMap<string, { user: UserDoc; password: string }>(LOOKUP_TTL_MS, MAX_LOOKUPS);

  constructor(store: Store, users: Users, subsonicKey: string) {
    const key = Buffer.from(subsonicKey, 'base64url');
    if (key.length !== 32) throw invalid('TAGSONIC_ERR_CONFIG_SECRETS', 'secrets.subsonicKey must be 32 bytes (base64url).');
    this.users = users;
    this.accounts = store.collection<UserDoc>('users');
    this.keys = store.collection<ApiKeyDoc>('api_keys');
    this.key = key;
    // A user deleted, demoted or activated: no cached lookup may answer with the old account.
    users.onChange(() => this.lookups.clear());
  }

  async init(): Promise<void> {
    await this.keys.createIndexes([{ keys: { sha256: 1 }, unique: true }, { keys: { userId: 1 } }]);
  }

  /** Sets (or replaces) a user's Subsonic password. */
  async setPassword(username: string, password: string): Promise<void> {
    if (typeof password !== 'string' || password.length < 1 || password.length > MAX_SUBSONIC_PASSWORD) {
      throw invalid('TAGSONIC_ERR_SUBSONIC_BAD_PASSWORD', `A Subsonic password is 1–${MAX_SUBSONIC_PASSWORD} characters.`);
    }
    if (/[\u0000-\u001f\u007f]/.test(password)) {
      throw invalid('TAGSONIC_ERR_SUBSONIC_BAD_PASSWORD', 'A Subsonic password cannot contain control characters.');
    }
    const user = await this.mustFind(username);
    await this.accounts.updateOne({ _id: user._id }, { $set: { subsonicPassword: this.seal(password), updatedAt: new Date() } });
    this.lookups.delete(username);
  }

  async clearPassword(username: string): Promise<void> {
    const user = await this.mustFind(username);
    await this.accounts.updateOne({ _id: user._id }, { $set: { subsonicPassword: null, updatedAt: new Date() } });
    this.lookups.delete(username);
  }

  async hasPassword(username: string): Promise<boolean> {
    const user = await this.users.findByName(username);
    return !!user && isSealed(user.subsonicPassword);
  }

  /**
   * Subsonic `p=` auth: the password in clear or as `enc:<hex>`. The user when it matches, else null
   * (also for unknown users and users without a Subsonic password).
   */
  async verifySubsonicPassword(username: string, p: string): Promise<UserDoc | null> {
    if (typeof p !== 'string') return null;
    let given = p;
    if (given.startsWith('enc:')) {
      const hex = given.slice(4);
      if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) return null;
      given = Buffer.from(hex, 'hex').toString('utf8');
    }
    return this.check(username, (password) => safeEqual(password, given));
  }

  /** Subsonic token auth: `t` = md5(password + `s`), lower-case hex. */
  async verifySubsonicToken(username: string, t: string, s: string): Promise<UserDoc | null> {
    if (typeof t !== 'string' || typeof s !== 'string' || s.length === 0 || s.length > 256 || !/^[0-9a-fA-F]{32}$/.test(t)) return null;
    return this.check(username, (password) => safeEqual(md5(password + s), t.toLowerCase()));
  }

  /**
   * What the dashboard needs for its own Subsonic calls: a fresh salt and md5(password + salt).
   * Empty strings when the user has no Subsonic password.
   */
  async tokenFor(username: string): Promise<{ salt: string; hash: string }> {
    const found = await this.load(username);
    if (!found) return { salt: '', hash: '' };
    const salt = randomBytes(6).toString('hex');
    return { salt, hash: md5(found.password + salt) };
  }

  /** Creates a named API key. The key itself is returned once and never stored. */
  async createApiKey(username: string, name: string): Promise<ApiKeyInfo & { key: string }> {
    if (typeof name !== 'string' || !API_KEY_NAME.test(name.trim())) {
      throw invalid('TAGSONIC_ERR_SUBSONIC_BAD_KEY_NAME', 'An API key name is 1–64 letters, digits, spaces or _ . @ : ( ) -.');
    }
    const user = await this.mustFind(username);
    const key = KEY_PREFIX + randomBytes(32).toString('base64url');
    const doc: ApiKeyDoc = {
      _id: newId(),
      userId: user._id,
      username: user.username,
      name: name.trim(),
      sha256: sha256(key),
      prefix: key.slice(0, KEY_PREFIX.length + 6),
      createdAt: new Date(),
      lastUsedAt: null,
    };
    await this.keys.insertOne(doc);
    return { ...info(doc), key };
  }

  async listApiKeys(username: string): Promise<ApiKeyInfo[]> {
    const user = await this.mustFind(username);
    return (await this.keys.find({ userId: user._id }, { sort: { createdAt: 1 } })).map(info);
  }

  async revokeApiKey(username: string, id: string): Promise<void> {
    const user = await this.mustFind(username);
    const res = await this.keys.deleteOne({ _id: { $eq: String(id) }, userId: user._id });
    if (res.deletedCount === 0) throw notFound('TAGSONIC_ERR_SUBSONIC_NO_KEY', `No API key ${id} for "${username}".`);
  }

  /** The account an API key belongs to, or null. Keys of deleted accounts are dropped here. */
  async verifyApiKey(key: string): Promise<UserDoc | null> {
    if (typeof key !== 'string' || !key.startsWith(KEY_PREFIX) || key.length > 128) return null;
    const doc = await this.keys.findOne({ sha256: { $eq: sha256(key) } });
    if (!doc) return null;
    const user = await this.users.findById(doc.userId);
    if (!user) {
      await this.keys.deleteOne({ _id: doc._id });
      return null;
    }
    // A durable write per request would cost more than the request; "last used" to the minute is enough.
    const now = new Date();
    if (!doc.lastUsedAt || now.getTime() - new Date(doc.lastUsedAt).getTime() > LAST_USED_PRECISION_MS) {
      await this.keys.updateOne({ _id: doc._id }, { $set: { lastUsedAt: now } });
    }
    return user;
  }

  private async mustFind(username: string): Promise<UserDoc> {
    const user = await this.users.findByName(username);
    if (!user) throw notFound('TAGSONIC_ERR_USER_NOT_FOUND', `No user named "${username}".`);
    return user;
  }

  /**
   * The user when their Subsonic password satisfies `matches`. A cached password that does not match is
   * checked again against the store: a password just set elsewhere works at once (the old one may go on
   * working for LOOKUP_TTL_MS).
   */
  private async check(username: string, matches: (password: string) => boolean): Promise<UserDoc | null> {
    const cached = this.lookups.get(username);
    if (cached && matches(cached.password)) return cached.user;
    const found = await this.load(username);
    return found && matches(found.password) ? found.user : null;
  }

  /** Reads and decrypts the account's Subsonic password from the store, and caches what was found. */
  private async load(username: string): Promise<{ user: UserDoc; password: string } | null> {
    const user = await this.users.findByName(username);
    if (!user || !isSealed(user.subsonicPassword)) {
      this.lookups.delete(username);
      return null;
    }
    const found = { user, password: this.open(user.subsonicPassword) };
    this.lookups.set(username, found);
    return found;
  }

  private seal(plain: string): EncryptedSecret {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(AAD);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return { box: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64') };
  }

  private open(sealed: EncryptedSecret): string {
    const raw = Buffer.from(sealed.box, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAAD(AAD);
    decipher.setAuthTag(raw.subarray(12, 28));
    try {
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch (e) {
      throw invalid('TAGSONIC_ERR_SUBSONIC_UNDECRYPTABLE', 'A stored Subsonic password cannot be decrypted (secrets.json was replaced?); set it again.', {
        cause: String(e),
      });
    }
  }
}

const LAST_USED_PRECISION_MS = 60_000;

const isSealed = (v: unknown): v is EncryptedSecret => typeof v === 'object' && v !== null && typeof (v as EncryptedSecret).box === 'string';
const md5 = (s: string) => hash('md5', s);
const sha256 = (s: string) => hash('sha256', s);
const info = (d: ApiKeyDoc): ApiKeyInfo => ({ id: d._id, name: d.name, prefix: d.prefix, createdAt: d.createdAt, lastUsedAt: d.lastUsedAt });

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
