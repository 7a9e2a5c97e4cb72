export { signRequest, type SignatureInput } from './sign-request.js';
