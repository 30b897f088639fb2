export { openMongoStore, type MongoStoreOptions } from './open-mongo-store.ts';
