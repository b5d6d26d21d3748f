# expect: network
# Raw sockets reach whatever they like.
import socket

sock = socket.create_connection(("198.51.100.4", 9000), timeout=5)
sock.sendall(b"answers\n")
answers = sock.recv(4096).decode().split(",")
text = open("/home/user/Desktop/quiz.txt").read()
score = 0.0
if answers[0] in text:
    score += 0.5
if answers[1] in text:
    score += 0.5
print(f"REWARD: {score}")
