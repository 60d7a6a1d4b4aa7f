import type { AddressCommand } from '../../workers/addresses/address-protocol.js';
import { userRoutesOf } from '../auth/access.js';
import { validateAddress } from './address-input.js';
import { dataAnswer, EMPTY_ANSWER } from '../http/route-doc.js';
import { ADDRESS, ADDRESS_BODY, ADDRESS_LIST } from './address-schemas.js';

const route = userRoutesOf<AddressCommand>();
const addressBody = { validate: validateAddress, quoteParseError: true } as const;
const addressId = { addressId: 'ADDRESS_NOT_FOUND' } as const;

/**
 * /users/:userId/addresses (contract section 7): the customer's own, read by
 * administrators too. Another customer's address id is simply not found.
 */
export const addressRoutes = [
  route({
    method: 'GET',
    path: '/users/:userId/addresses',
    summary: "The user's delivery addresses, oldest first",
    action: { store: ({ ids }) => ({ kind: 'addresses.list', userId: ids.userId }), status: 200 },
    doc: { answers: { 200: dataAnswer(ADDRESS_LIST) } },
  }),
  route({
    method: 'POST',
    path: '/users/:userId/addresses',
    summary: 'Add a delivery address (at most 20)',
    body: addressBody,
    probe: ({ ids }) => ({ kind: 'addresses.probe', userId: ids.userId }),
    action: { store: ({ ids, body }) => ({ kind: 'addresses.create', userId: ids.userId, fields: body }), status: 201 },
    doc: { answers: { 201: dataAnswer(ADDRESS) }, body: ADDRESS_BODY, errors: ['ADDRESS_FIELD_INVALID', 'ADDRESS_LIMIT_REACHED'] },
  }),
  route({
    method: 'GET',
    path: '/users/:userId/addresses/:addressId',
    summary: "One of the user's addresses",
    ids: addressId,
    action: { store: ({ ids }) => ({ kind: 'addresses.get', userId: ids.userId, addressId: ids.addressId }), status: 200 },
    doc: { answers: { 200: dataAnswer(ADDRESS) } },
  }),
  route({
    method: 'PUT',
    path: '/users/:userId/addresses/:addressId',
    summary: "Replace every field of one of the user's addresses",
    body: addressBody,
    ids: addressId,
    probe: ({ ids }) => ({ kind: 'addresses.probe', userId: ids.userId, addressId: ids.addressId }),
    action: { store: ({ ids, body }) => ({ kind: 'addresses.replace', userId: ids.userId, addressId: ids.addressId, fields: body }), status: 200 },
    doc: { answers: { 200: dataAnswer(ADDRESS) }, body: ADDRESS_BODY, errors: ['ADDRESS_FIELD_INVALID'] },
  }),
  route({
    method: 'DELETE',
    path: '/users/:userId/addresses/:addressId',
    summary: "Delete one of the user's addresses (orders keep their copy)",
    ids: addressId,
    action: { store: ({ ids }) => ({ kind: 'addresses.delete', userId: ids.userId, addressId: ids.addressId }), status: 204 },
    doc: { answers: { 204: EMPTY_ANSWER } },
  }),
];
