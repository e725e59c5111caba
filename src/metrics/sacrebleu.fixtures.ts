/**
 * Reference values for bleu/chrf/ter. Produced by lm-eval's own aggregations `bleu`, `chrf`, `ter`
 * (lm_eval/api/metrics.py at 4e7e0d47, i.e. `sacrebleu.corpus_*(preds, refs).score` after `_sacreformat`)
 * with sacreBLEU from source (github mjpost/sacrebleu at f615c72; portalocker, tabulate, colorama and lxml
 * stubbed out because they are not installed), under CPython 3.11 on this machine.
 */
export const CORPUS: Array<[reference: string, prediction: string]> = [
  ['The cat is on the mat.', 'The cat sat on the mat.'],
  ['There is a cat on the mat.', 'A cat is on the mat!'],
  ["It's 3.5 km, isn't it?", 'It is 3.5 km, is it not?'],
  ['Hello, world &amp; friends', 'hello world & friends'],
  ['The quick brown fox jumps over the lazy dog', 'the fox quick brown jumps over lazy dog the'],
  ['123-456 costs $7.50 (approx.)', '123 - 456 costs 7.50 $ approx'],
];
export const MULTI_REFERENCE: Array<[references: string[], prediction: string]> = [
  [['The cat is on the mat.', 'There is a cat on the mat.'], 'The cat sat on the mat.'],
  [['Good morning!', 'Hi there'], 'good morning'],
];
/** [reference, prediction, bleu([(ref, pred)]), chrf([(ref, pred)])] */
export const SEGMENTS: Array<[reference: string, prediction: string, bleu: number, chrf: number]> = [
  ['The cat is on the mat.', 'The cat sat on the mat.', 48.892302243490086, 67.17273492330233],
  ['There is a cat on the mat.', 'A cat is on the mat!', 24.0785655451027, 40.75702056424759],
  ["It's 3.5 km, isn't it?", 'It is 3.5 km, is it not?', 20.164945583740657, 51.618440111087175],
  ['Hello, world &amp; friends', 'hello world & friends', 46.30777161991026, 47.748504490828466],
  [
    'The quick brown fox jumps over the lazy dog',
    'the fox quick brown jumps over lazy dog the',
    17.747405280050266,
    63.51923699587362,
  ],
  ['123-456 costs $7.50 (approx.)', '123 - 456 costs 7.50 $ approx', 30.80465112184665, 63.46372544711512],
];
export const EXPECTED = {
  bleu: 26.145030228410224,
  chrf: 56.79659261169292,
  ter: 54.285714285714285,
  bleuMulti: 45.91497693322866,
  chrfMulti: 71.87303535645154,
  terMulti: 23.52941176470588,
  /** bleu([("hello there general kenobi", "hello")]) */
  bleuShort: 0.0,
};
/** [reference, prediction, ter([(ref, pred)])] */
export const TER_SHIFTS: Array<[reference: string, prediction: string, ter: number]> = [
  ['a b c d e f g h', 'e f g h a b c d', 12.5],
  ['one two three four five six', 'four five six one two three extra', 33.33333333333333],
  ['x y z', '', 100.0],
];
