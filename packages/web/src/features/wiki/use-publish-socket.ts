import type { PublishClientMessage } from "@ledgerline/contract";
import { useCallback, useEffect, useReducer, useRef } from "react";
import {
  initialPublishState,
  type PublishState,
  parseServerMessage,
  publishReducer,
  publishSocketUrl,
} from "./publish-state.ts";

const send = (socket: WebSocket, message: PublishClientMessage) => socket.send(message);

export interface PublishSocket {
  state: PublishState;
  /** Sends 'publish'; does nothing unless the socket is open. */
  publish: () => void;
}

/**
 * The page's connection to /ws/publish: asks for the status on open and keeps the busy state,
 * progress and last result. `onClosed` runs when the server or network ends the connection,
 * never when the page itself closes it on the way out.
 */
export function usePublishSocket(onClosed: () => void): PublishSocket {
  const [state, dispatch] = useReducer(publishReducer, initialPublishState);
  const socketRef = useRef<WebSocket | null>(null);
  const onClosedRef = useRef(onClosed);
  useEffect(() => {
    onClosedRef.current = onClosed;
  }, [onClosed]);

  useEffect(() => {
    const socket = new WebSocket(publishSocketUrl(window.location));
    socketRef.current = socket;
    let leaving = false;
    socket.onopen = () => send(socket, "status");
    socket.onmessage = (event) => {
      if (typeof event.data !== "string") return;
      const message = parseServerMessage(event.data);
      if (message) dispatch(message);
    };
    socket.onclose = () => {
      if (!leaving) onClosedRef.current();
    };
    return () => {
      leaving = true;
      socketRef.current = null;
      socket.onmessage = null;
      // Closing while still connecting makes the browser log an error: wait for the open instead.
      if (socket.readyState === WebSocket.CONNECTING) socket.onopen = () => socket.close(1000);
      else socket.close(1000);
    };
  }, []);

  const publish = useCallback(() => {
    const socket = socketRef.current;
    if (socket?.readyState !== WebSocket.OPEN) return;
    dispatch({ type: "publishRequested" });
    send(socket, "publish");
  }, []);

  return { state, publish };
}
