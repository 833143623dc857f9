#!/usr/bin/python3
"""The Qt 5 twin of gtk4_demo.py for the live application tests (Debian's python3-pyqt5): the same
window (three buttons, a slider, a check box, a counter with its label, a button that opens a
modal dialog). Qt publishes its tree on the AT-SPI bus only when told to
(QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1, set here before Qt starts, since no screen reader is
running on the test desktop). Every handler prints what it did (one line, flushed)."""
import os
import sys
os.environ["QT_LINUX_ACCESSIBILITY_ALWAYS_ON"] = "1"
os.environ.setdefault("QT_QPA_PLATFORM", "xcb")
from PyQt5.QtCore import Qt
from PyQt5.QtWidgets import (QApplication, QCheckBox, QDialog, QLabel, QPushButton, QSlider,
                             QVBoxLayout, QWidget)

def say(text):
    print(text, flush=True)

app = QApplication(["qt5_demo"])
app.setApplicationName("qt5_demo")
window = QWidget()
window.setWindowTitle("Demo")
window.resize(320, 400)
box = QVBoxLayout(window)
for n in range(3):
    button = QPushButton(f"Button {n}")
    button.clicked.connect(lambda _checked=False, n=n: say(f"clicked Button {n}"))
    box.addWidget(button)
scale = QSlider(Qt.Horizontal)
scale.setRange(0, 100)
scale.setValue(50)
scale.valueChanged.connect(lambda value: say(f"value {value}"))
box.addWidget(scale)
check = QCheckBox("Wi-Fi")
check.toggled.connect(lambda on: say(f"Wi-Fi {'on' if on else 'off'}"))
box.addWidget(check)
status = QLabel("Count 0")
counter = [0]
def count():
    counter[0] += 1
    status.setText(f"Count {counter[0]}")
    say(f"count {counter[0]}")
more = QPushButton("Count")
more.clicked.connect(count)
box.addWidget(more)
box.addWidget(status)
def open_dialog():
    dialog = QDialog(window)
    dialog.setWindowTitle("Confirm")
    dialog.setModal(True)
    inner = QVBoxLayout(dialog)
    inner.addWidget(QLabel("Really?"))
    ok = QPushButton("OK")
    ok.clicked.connect(lambda: (say("dialog OK"), dialog.accept()))
    inner.addWidget(ok)
    dialog.show()
    say("dialog opened")
opener = QPushButton("Open dialog")
opener.clicked.connect(open_dialog)
box.addWidget(opener)
window.show()
say("ready")
sys.exit(app.exec_())
