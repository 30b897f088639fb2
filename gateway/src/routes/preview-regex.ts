import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { invalid } from '@tagsonic/core/errors';
import { isTagField } from '@tagsonic/core/tags';
import { compileSafeRegex, replaceText } from '@tagsonic/core/templates';
import { ok } from '../envelope.ts';
import { requireUser } from '../auth.ts';
import { PreviewRegexRequest, PreviewRegexResponse } from '../schemas/files.ts';
import { ErrorEnvelope } from '../schemas/common.ts';

/**
 * POST /apimt/preview_regex/: shows what a split-file-name or replace-text rule set does to a sample,
 * with the same engine the batch actions use (RE2: linear time, so no pattern can hang the server).
 */
export async function previewRegexRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/apimt/preview_regex/',
    { onRequest: requireUser, schema: { body: PreviewRegexRequest, response: { 200: PreviewRegexResponse, '4xx': ErrorEnvelope } } },
    async (request) => {
      const { preview_text: text, mode, rule_list: rules, replace_mode } = request.body;
      if (mode === 'split_filename') {
        if (!rules.every((r): r is string => typeof r === 'string')) {
          throw invalid('TAGSONIC_ERR_REGEX_BAD_RULES', 'split_filename rules are patterns (strings) with named groups such as (?<title>.+).');
        }
        const compiled = rules.map((r) => compileSafeRegex(r));
        for (const re of compiled) {
          const unknown = groupFieldsOf(re.source).filter((g) => !isTagField(g));
          if (unknown.length) throw invalid('TAGSONIC_ERR_REGEX_BAD_GROUP', `Named groups must be tag fields; ${unknown.join(', ')} is not one.`);
        }
        for (let i = 0; i < compiled.length; i++) {
          const m = compiled[i].match(text);
          if (m) return ok({ mode, text, fields: m.groups, matched_rule: i, count: 0 }, '预览成功！');
        }
        return ok({ mode, text, fields: {}, matched_rule: -1, count: 0 }, '没有规则匹配');
      }
      if (!rules.every((r): r is { before: string; after: string } => typeof r === 'object')) {
        throw invalid('TAGSONIC_ERR_REGEX_BAD_RULES', 'replace_text rules are {before, after} pairs.');
      }
      let out = text;
      let count = 0;
      for (const rule of rules) {
        const step = replace_mode === 'regex' ? compileSafeRegex(rule.before).replaceAll(out, rule.after) : replaceText(out, rule.before, rule.after);
        out = step.text;
        count += step.count;
      }
      return ok({ mode, text: out, fields: {}, matched_rule: -1, count }, '预览成功！');
    },
  );
}

const groupFieldsOf = (pattern: string) => [...pattern.matchAll(/\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/g)].map((m) => m[1]);
