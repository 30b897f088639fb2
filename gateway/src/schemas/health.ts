import { Type } from 'typebox';

const Part = Type.Object({ driver: Type.String(), ok: Type.Boolean(), detail: Type.Optional(Type.String()) });

export const HealthResponse = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  version: Type.Object({ display: Type.String(), project: Type.String(), build: Type.String() }),
  mode: Type.Union([Type.Literal('embedded'), Type.Literal('distributed')]),
  store: Part,
  bus: Part,
  uptimeSec: Type.Number(),
});
