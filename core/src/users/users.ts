import type { Collection, Store } from '../store/port.ts';
import { newId } from '../ids.ts';
import { conflict, invalid, notFound } from '../errors/errors.ts';
import { hashPassword, randomPassword, verifyPassword } from './password.ts';

/** Editions from the spec: V1 basic, V2 activated by a code. */
export type Role = 'V1' | 'V2';

export interface UserDoc {
  _id: string;
  username: string;
  passwordHash: string;
  role: Role;
  isAdmin: boolean;
  isForever: boolean;
  /** Activation expiry for V2 (null = none / forever). */
  activeUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** Raised when the password changes or the account is reset: sessions signed before it end. */
  sessionEpoch?: number;
  [key: string]: unknown;
}

/** A redeemed activation code: one account per code. */
interface RedemptionDoc {
  _id: string;
  username: string;
  at: Date;
  [key: string]: unknown;
}

/** What an activation code grants (see core/src/license). */
export interface ActivationGrant {
  codeId: string;
  isForever: boolean;
  /** ms since the epoch; null when forever. */
  expiresAt: number | null;
}

/** The edition a user has right now: a V2 activation that ran out counts as V1. */
export function effectiveRole(user: Pick<UserDoc, 'role' | 'isForever' | 'activeUntil'>, now = Date.now()): Role {
  if (user.role !== 'V2') return 'V1';
  if (user.isForever || user.activeUntil === null) return 'V2';
  return new Date(user.activeUntil).getTime() > now ? 'V2' : 'V1';
}

const USERNAME = /^[\p{L}\p{N}_.@-]{1,64}$/u;
export const MIN_PASSWORD_LENGTH = 8;

/** The users repository: accounts, password hashes, roles. Usernames match exactly (no patterns, no case folding). */
export class Users {
  private readonly users: Collection<UserDoc>;
  private readonly redemptions: Collection<RedemptionDoc>;
  private readonly listeners = new Set<() => void>();

  constructor(store: Store) {
    this.users = store.collection<UserDoc>('users');
    this.redemptions = store.collection<RedemptionDoc>('license_redemptions');
  }

  async init(): Promise<void> {
    await this.users.createIndexes([{ keys: { username: 1 }, unique: true }]);
  }

  /** Calls `listener` after every change to an account made through this object (for caches of accounts). */
  onChange(listener: () => void): void {
    this.listeners.add(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  async count(): Promise<number> {
    return this.users.countDocuments({});
  }

  async findByName(username: string): Promise<UserDoc | null> {
    if (typeof username !== 'string' || username === '') return null;
    // An equality match on a string value: never interpreted as a pattern or operator.
    return this.users.findOne({ username: { $eq: username } });
  }

  async create(input: { username: string; password: string; role?: Role; isAdmin?: boolean }): Promise<UserDoc> {
    if (!USERNAME.test(input.username)) {
      throw invalid('TAGSONIC_ERR_USER_BAD_NAME', 'A username is 1–64 letters, digits, "_", ".", "@" or "-".');
    }
    checkPassword(input.password);
    if (await this.findByName(input.username)) {
      throw conflict('TAGSONIC_ERR_USER_EXISTS', `User "${input.username}" already exists.`);
    }
    const now = new Date();
    const doc: UserDoc = {
      _id: newId(),
      username: input.username,
      passwordHash: await hashPassword(input.password),
      role: input.role ?? 'V1',
      isAdmin: input.isAdmin ?? false,
      isForever: false,
      activeUntil: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.users.insertOne(doc);
    this.changed();
    return doc;
  }

  async setPassword(username: string, password: string): Promise<void> {
    checkPassword(password);
    const res = await this.users.updateOne(
      { username: { $eq: username } },
      { $set: { passwordHash: await hashPassword(password), updatedAt: new Date() }, $inc: { sessionEpoch: 1 } },
    );
    if (res.matchedCount === 0) throw userNotFound(username);
    this.changed();
  }

  async findById(id: string): Promise<UserDoc | null> {
    if (typeof id !== 'string' || id === '') return null;
    return this.users.findOne({ _id: { $eq: id } });
  }

  /** Every account, by name. */
  async list(): Promise<UserDoc[]> {
    return this.users.find({}, { sort: { username: 1 } });
  }

  /** Deletes an account; the last administrator cannot be deleted (nobody could manage users then). */
  async delete(username: string): Promise<void> {
    const user = await this.findByName(username);
    if (!user) throw userNotFound(username);
    if (user.isAdmin && (await this.users.countDocuments({ isAdmin: true })) <= 1) {
      throw conflict('TAGSONIC_ERR_USER_LAST_ADMIN', `"${username}" is the only administrator and cannot be deleted.`);
    }
    await this.users.deleteOne({ _id: user._id });
    this.changed();
  }

  /**
   * Sets the edition by hand (admin backend). V2 given by an administrator is permanent unless an
   * end date is given.
   */
  async setRole(username: string, role: Role, options: { activeUntil?: Date | null } = {}): Promise<UserDoc> {
    if (role !== 'V1' && role !== 'V2') throw invalid('TAGSONIC_ERR_USER_BAD_ROLE', 'The role must be V1 or V2.');
    const activeUntil = role === 'V2' ? (options.activeUntil ?? null) : null;
    const updated = await this.users.findOneAndUpdate(
      { username: { $eq: username } },
      { $set: { role, isForever: role === 'V2' && activeUntil === null, activeUntil, updatedAt: new Date() } },
    );
    if (!updated) throw userNotFound(username);
    this.changed();
    return updated;
  }

  /** Grants or withdraws administrator rights; the last administrator keeps them. */
  async setAdmin(username: string, isAdmin: boolean): Promise<UserDoc> {
    const user = await this.findByName(username);
    if (!user) throw userNotFound(username);
    if (!isAdmin && user.isAdmin && (await this.users.countDocuments({ isAdmin: true })) <= 1) {
      throw conflict('TAGSONIC_ERR_USER_LAST_ADMIN', `"${username}" is the only administrator and must stay one.`);
    }
    const updated = (await this.users.findOneAndUpdate({ _id: user._id }, { $set: { isAdmin, updatedAt: new Date() } }))!;
    this.changed();
    return updated;
  }

  /**
   * Applies a verified activation code. A code belongs to the first account that redeems it; the
   * same account may submit it again. A shorter code never shortens a longer or permanent activation.
   */
  async activate(username: string, grant: ActivationGrant): Promise<UserDoc> {
    const user = await this.findByName(username);
    if (!user) throw userNotFound(username);
    try {
      await this.redemptions.insertOne({ _id: grant.codeId, username: user.username, at: new Date() });
    } catch (e) {
      if ((e as { kind?: string }).kind !== 'conflict') throw e;
      const owner = await this.redemptions.findOne({ _id: grant.codeId });
      if (owner && owner.username !== user.username) {
        throw conflict('TAGSONIC_ERR_LICENSE_USED', 'This activation code has already been used by another account.');
      }
    }
    const current = effectiveRole(user) === 'V2' ? user : null;
    const isForever = grant.isForever || (current?.isForever ?? false);
    let activeUntil: Date | null = isForever ? null : new Date(grant.expiresAt!);
    if (!isForever && current?.activeUntil && new Date(current.activeUntil).getTime() > activeUntil!.getTime()) {
      activeUntil = new Date(current.activeUntil);
    }
    const updated = (await this.users.findOneAndUpdate(
      { _id: user._id },
      { $set: { role: 'V2', isForever, activeUntil, updatedAt: new Date() } },
    ))!;
    this.changed();
    return updated;
  }

  /** The user when the password matches; null otherwise (same answer for an unknown user). */
  async authenticate(username: string, password: string): Promise<UserDoc | null> {
    const user = await this.findByName(username);
    if (!user) {
      // Spend the same time as a real check so timing does not reveal which usernames exist.
      await verifyPassword(password, DUMMY_HASH);
      return null;
    }
    return (await verifyPassword(password, user.passwordHash)) ? user : null;
  }

  /**
   * First start: when there is no user, creates `admin` with the given password or a random one.
   * Returns the generated password (to print once) or null.
   */
  async ensureAdmin(password: string | undefined): Promise<{ created: boolean; generatedPassword: string | null }> {
    if ((await this.count()) > 0) return { created: false, generatedPassword: null };
    const generated = password ? null : randomPassword();
    try {
      await this.create({ username: 'admin', password: password ?? generated!, isAdmin: true });
    } catch (e) {
      // Another process (a second gateway) created it first.
      if ((e as { code?: string }).code === 'TAGSONIC_ERR_USER_EXISTS' || (e as { kind?: string }).kind === 'conflict') {
        return { created: false, generatedPassword: null };
      }
      throw e;
    }
    return { created: true, generatedPassword: generated };
  }
}

const userNotFound = (username: string) => notFound('TAGSONIC_ERR_USER_NOT_FOUND', `No user named "${username}".`);

function checkPassword(password: string): void {
  if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH) {
    throw invalid('TAGSONIC_ERR_USER_WEAK_PASSWORD', `A password needs at least ${MIN_PASSWORD_LENGTH} characters.`);
  }
  if (password.length > 1024) throw invalid('TAGSONIC_ERR_USER_WEAK_PASSWORD', 'That password is too long.');
}

// A hash of a random throwaway password with the current cost, used only to equalise timing.
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
