import { describe, expect, it } from 'vitest';
import { SECRET_MASK, type ConfigSchema } from '../api/types.ts';
import { buildConfig, initialValues, parseBaseUrl } from './config-form.ts';

const schema: ConfigSchema = {
  type: 'object',
  required: ['client_id', 'client_secret'],
  properties: {
    client_id: { type: 'string', title: 'Client ID' },
    client_secret: { type: 'string', title: 'Client secret', secret: true },
    country: { type: 'string', title: 'Store', enum: ['us', 'jp'], default: 'us' },
    limit: { type: 'number', title: 'Results', default: 10 },
    covers: { type: 'boolean', title: 'Covers', default: true },
  },
};

describe('plugin settings form', () => {
  it('starts from the saved values, then the defaults; a saved secret shows its mask', () => {
    expect(initialValues(schema, { client_id: 'abc', client_secret: SECRET_MASK, limit: 5 })).toEqual({ client_id: 'abc', client_secret: SECRET_MASK, country: 'us', limit: '5', covers: true });
    expect(initialValues(null, {})).toEqual({});
  });

  it('sends numbers as numbers, keeps the mask of an untouched secret, leaves empty optional fields out', () => {
    expect(buildConfig(schema, { client_id: ' abc ', client_secret: SECRET_MASK, country: 'jp', limit: '25', covers: false })).toEqual({
      config: { client_id: 'abc', client_secret: SECRET_MASK, country: 'jp', limit: 25, covers: false },
      errors: {},
    });
    expect(buildConfig(schema, { client_id: 'abc', client_secret: 'new', country: '', limit: '', covers: true }).config).toEqual({ client_id: 'abc', client_secret: 'new', covers: true });
  });

  it('names the fields that are missing or wrong', () => {
    expect(buildConfig(schema, { client_id: '', client_secret: ' ', country: 'fr', limit: 'ten', covers: true }).errors).toEqual({
      client_id: '必填',
      client_secret: '必填',
      country: '请选择一个选项',
      limit: '请输入数字',
    });
  });

  it('takes an http(s) base URL or nothing', () => {
    expect(parseBaseUrl('  ')).toBeNull();
    expect(parseBaseUrl('http://127.0.0.1:9001')).toBe('http://127.0.0.1:9001');
    expect(parseBaseUrl('ftp://mirror')).toBeUndefined();
    expect(parseBaseUrl('mirror.local')).toBeUndefined();
  });
});
