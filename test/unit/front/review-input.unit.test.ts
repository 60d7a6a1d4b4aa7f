/**
 * A review body as the front judges it (contract section 7, "Reviews"):
 * rating an integer 1 to 5, title null, omitted or at most 120 characters,
 * body 1 to 2,000 characters, counted as a reader counts them (code
 * points); the first bad field in the contract's order is named; values are
 * kept as given and unknown keys dropped.
 */
import test from 'ava';
import { MAX_REVIEW_BODY_LENGTH, MAX_REVIEW_TITLE_LENGTH, validateReview } from '../../../src/reviews/review-input.js';

const GOOD = { rating: 4, title: 'Nice', body: 'Works well.' };

function messageOf(value: unknown): string {
  const judged = validateReview(value);
  if (judged.ok) throw new Error(`expected ${JSON.stringify(value)} to be refused`);
  if (judged.error.code !== 'REVIEW_FIELD_INVALID') throw new Error(`unexpected code ${judged.error.code}`);
  return judged.error.message ?? '';
}

test('a good body is kept as given; an omitted or null title is null; unknown keys are dropped', (t) => {
  t.deepEqual(validateReview(GOOD), { ok: true, value: GOOD });
  t.deepEqual(validateReview({ rating: 1, body: ' x ' }), { ok: true, value: { rating: 1, title: null, body: ' x ' } });
  t.deepEqual(validateReview({ ...GOOD, title: null, id: 9, userId: 2, author: 'Mallory' }), { ok: true, value: { rating: 4, title: null, body: 'Works well.' } });
  t.deepEqual(validateReview({ ...GOOD, rating: 5.0 }), { ok: true, value: { ...GOOD, rating: 5 } }, '5.0 is the integer 5 in JSON');
});

test('the bounds: title 0 and 120 characters, body 1 and 2,000, counted in code points (an emoji is one)', (t) => {
  for (const title of ['', 'x'.repeat(MAX_REVIEW_TITLE_LENGTH), '😀'.repeat(MAX_REVIEW_TITLE_LENGTH)]) t.true(validateReview({ ...GOOD, title }).ok, `title of ${title.length} UTF-16 units`);
  for (const body of ['x', 'x'.repeat(MAX_REVIEW_BODY_LENGTH), '😀'.repeat(MAX_REVIEW_BODY_LENGTH)]) t.true(validateReview({ ...GOOD, body }).ok, `body of ${body.length} UTF-16 units`);
  t.regex(messageOf({ ...GOOD, title: 'x'.repeat(MAX_REVIEW_TITLE_LENGTH + 1) }), /^title /);
  t.regex(messageOf({ ...GOOD, title: '😀'.repeat(MAX_REVIEW_TITLE_LENGTH + 1) }), /^title /);
  t.regex(messageOf({ ...GOOD, body: 'x'.repeat(MAX_REVIEW_BODY_LENGTH + 1) }), /^body /);
  t.regex(messageOf({ ...GOOD, body: '😀'.repeat(MAX_REVIEW_BODY_LENGTH + 1) }), /^body /);
});

const BAD: readonly [string, unknown, RegExp][] = [
  ['rating missing', { body: 'b' }, /^rating /],
  ['rating null', { ...GOOD, rating: null }, /^rating /],
  ['rating 0', { ...GOOD, rating: 0 }, /^rating /],
  ['rating 6', { ...GOOD, rating: 6 }, /^rating /],
  ['rating 4.5', { ...GOOD, rating: 4.5 }, /^rating /],
  ['rating "5"', { ...GOOD, rating: '5' }, /^rating /],
  ['rating true', { ...GOOD, rating: true }, /^rating /],
  ['rating -1', { ...GOOD, rating: -1 }, /^rating /],
  ['title a number', { ...GOOD, title: 5 }, /^title /],
  ['title an array', { ...GOOD, title: ['a'] }, /^title /],
  ['body missing', { rating: 3 }, /^body /],
  ['body empty', { ...GOOD, body: '' }, /^body /],
  ['body null', { ...GOOD, body: null }, /^body /],
  ['body a number', { ...GOOD, body: 12 }, /^body /],
  ['body an object', { ...GOOD, body: { text: 'x' } }, /^body /],
  ['several bad: rating first', { rating: 9, title: 7, body: '' }, /^rating /],
  ['title and body bad: title first', { rating: 3, title: 7, body: '' }, /^title /],
  ['not an object: array', [GOOD], /JSON object/],
  ['not an object: string', 'review', /JSON object/],
  ['not an object: null', null, /JSON object/],
  ['not an object: number', 5, /JSON object/],
];

for (const [label, value, message] of BAD) {
  test(`refused, naming the field: ${label}`, (t) => {
    t.regex(messageOf(value), message);
  });
}
