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
  [key: string]: unknown;
}

const USERNAME = /^[\p{L}\p{N}_.@-]{1,64}$/u;
export const MIN_PASSWORD_LENGTH = 8;

/** The users repository: accounts, password hashes, roles. Usernames match exactly (no patterns, no case folding). */
export class Users {
  private readonly users: Collection<UserDoc>;

  constructor(store: Store) {
    this.users = store.collection<UserDoc>('users');
  }

  async init(): Promise<void> {
    await this.users.createIndexes([{ keys: { username: 1 }, unique: true }]);
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
    return doc;
  }

  async setPassword(username: string, password: string): Promise<void> {
    checkPassword(password);
    const res = await this.users.updateOne(
      { username: { $eq: username } },
      { $set: { passwordHash: await hashPassword(password), updatedAt: new Date() } },
    );
    if (res.matchedCount === 0) throw notFound('TAGSONIC_ERR_USER_NOT_FOUND', `No user named "${username}".`);
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

function checkPassword(password: string): void {
  if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH) {
    throw invalid('TAGSONIC_ERR_USER_WEAK_PASSWORD', `A password needs at least ${MIN_PASSWORD_LENGTH} characters.`);
  }
  if (password.length > 1024) throw invalid('TAGSONIC_ERR_USER_WEAK_PASSWORD', 'That password is too long.');
}

// A hash of a random throwaway password with the current cost, used only to equalise timing.
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
