import Domain
import Foundation
import MockSupport
import Scenes
import Testing
import UseCase

@Suite("Review use cases")
struct ReviewUseCaseTests {
    static let author = Fixtures.id(700)
    static let item = Fixtures.id(701)
    static let jpeg = PhotoFile(path: "/tmp/x", size: 2048, leadingBytes: [0xFF, 0xD8, 0xFF, 0xE0])

    static func useCase(_ store: MockReviewStore, media: MockMediaStorage? = MockMediaStorage()) -> ReviewUseCase {
        ReviewContainer(store: store, media: media, system: Fixtures.system, spoolDirectory: URL(fileURLWithPath: "/tmp")).useCase
    }

    static func review(photos: Int = 0) -> Review {
        let photo = ReviewPhoto(
            id: Fixtures.id(1), reviewID: Fixtures.id(702), itemID: item, filename: "a.jpg", format: .jpeg, size: 1, createdAt: Fixtures.now
        )
        return Review(
            id: Fixtures.id(702), itemID: item, customerID: author, content: "Good", rating: 4,
            photos: Array(repeating: photo, count: photos), createdAt: Fixtures.now)
    }

    @Test func postStoresTheCheckedReview() async throws {
        let store = MockReviewStore { $0.insert = { _ in } }
        let review = try await Self.useCase(store).post(
            customerID: Self.author, itemID: Self.item, ReviewDraft(content: "Lovely mug", rating: 5))
        #expect(review.id == Fixtures.fixedID && review.photos.isEmpty && review.createdAt == Fixtures.now)
        #expect(store.calls == [.insert(review)])
    }

    @Test func postRefusesBadContentAndRating() async throws {
        let store = MockReviewStore()
        let error = await #expect(throws: ValidationError.self) {
            try await Self.useCase(store).post(customerID: Self.author, itemID: Self.item, ReviewDraft(content: "  ", rating: 6))
        }
        #expect(error?.fields.map(\.field) == ["content", "rating"])
        let long = String(repeating: "a", count: ReviewRules.maxContentLength + 1)
        await #expect(throws: ValidationError.self) {
            try await Self.useCase(store).post(customerID: Self.author, itemID: Self.item, ReviewDraft(content: long, rating: 3))
        }
        #expect(store.calls.isEmpty)
    }

    @Test func listAnswersNotFoundForAnUnknownItemAndSummarises() async throws {
        let missing = MockReviewStore { $0.itemExists = { _ in false } }
        await #expect(throws: ReviewError.itemNotFound(Self.item)) {
            try await Self.useCase(missing).list(itemID: Self.item, limit: nil, cursor: nil)
        }
        let store = MockReviewStore {
            $0.itemExists = { _ in true }
            $0.reviews = { _, _, _ in [Self.review()] }
            $0.ratingSummary = { _ in RatingSummary(histogram: [4: 2, 5: 1]) }
        }
        let (page, summary) = try await Self.useCase(store).list(itemID: Self.item, limit: 10, cursor: nil)
        #expect(page.items == [Self.review()] && page.nextCursor == nil)
        #expect(summary.count == 3 && summary.average == 4.33 && summary.histogram[1] == 0)
    }

    @Test func onlyTheAuthorAddsPhotosAndAtMostFive() async throws {
        let store = MockReviewStore { $0.review = { _ in Self.review() } }
        await #expect(throws: ReviewError.notAuthor) {
            try await Self.useCase(store).addPhoto(customerID: Fixtures.id(999), reviewID: Fixtures.id(702), file: Self.jpeg)
        }
        let full = MockReviewStore { $0.review = { _ in Self.review(photos: ReviewRules.maxPhotos) } }
        await #expect(throws: ReviewError.tooManyPhotos(limit: 5)) {
            try await Self.useCase(full).addPhoto(customerID: Self.author, reviewID: Fixtures.id(702), file: Self.jpeg)
        }
        let none = MockReviewStore { $0.review = { _ in nil } }
        await #expect(throws: ReviewError.reviewNotFound(Fixtures.id(702))) {
            try await Self.useCase(none).authorizePhoto(customerID: Self.author, reviewID: Fixtures.id(702))
        }
    }

    @Test func theFileIsJudgedByItsBytesBeforeAnythingIsUploaded() async throws {
        let store = MockReviewStore { $0.review = { _ in Self.review() } }
        let media = MockMediaStorage()
        let useCase = Self.useCase(store, media: media)
        let text = PhotoFile(path: "/tmp/x", size: 5, leadingBytes: Array("hello".utf8))
        await #expect(throws: ReviewError.photoUnrecognized) {
            try await useCase.addPhoto(customerID: Self.author, reviewID: Fixtures.id(702), file: text)
        }
        let empty = PhotoFile(path: "/tmp/x", size: 0, leadingBytes: [])
        await #expect(throws: ReviewError.photoEmpty) {
            try await useCase.addPhoto(customerID: Self.author, reviewID: Fixtures.id(702), file: empty)
        }
        let huge = PhotoFile(path: "/tmp/x", size: ReviewRules.maxPhotoBytes + 1, leadingBytes: [0xFF, 0xD8, 0xFF])
        await #expect(throws: ReviewError.photoTooLarge(limit: ReviewRules.maxPhotoBytes)) {
            try await useCase.addPhoto(customerID: Self.author, reviewID: Fixtures.id(702), file: huge)
        }
        #expect(media.calls.isEmpty)
    }

    @Test func aPhotoIsUploadedUnderOurNameThenRecorded() async throws {
        let store = MockReviewStore {
            $0.review = { _ in Self.review() }
            $0.reservePhotoSlot = { _, _, _, _ in true }
            $0.addPhoto = { _, _ in }
        }
        let media = MockMediaStorage { $0.upload = { _, name, _ in "stored-" + name } }
        let photo = try await Self.useCase(store, media: media).addPhoto(
            customerID: Self.author, reviewID: Fixtures.id(702), file: Self.jpeg)
        let name = "\(Fixtures.fixedID.uuidString.lowercased()).jpg"
        #expect(media.calls == [.upload(Self.jpeg, name, .jpeg)])
        #expect(photo.filename == "stored-" + name && photo.format == .jpeg && photo.size == 2048 && photo.itemID == Self.item)
        // The place is taken before the upload, then filled.
        let expires = Fixtures.now.addingTimeInterval(ReviewRules.photoSlotLifetime)
        #expect(store.calls.suffix(2) == [.reservePhotoSlot(photo.id, Fixtures.id(702), 5, expires), .addPhoto(photo, photo.id)])
    }

    @Test func aFailingMediaAPIRecordsNothingAndFreesThePlace() async throws {
        let store = MockReviewStore {
            $0.review = { _ in Self.review() }
            $0.reservePhotoSlot = { _, _, _, _ in true }
            $0.releasePhotoSlot = { _ in }
        }
        let media = MockMediaStorage { $0.upload = { _, _, _ in throw ExternalServiceError(service: "media", reason: "down") } }
        await #expect(throws: ExternalServiceError.self) {
            try await Self.useCase(store, media: media).addPhoto(customerID: Self.author, reviewID: Fixtures.id(702), file: Self.jpeg)
        }
        #expect(!store.calls.contains { if case .addPhoto = $0 { return true } else { return false } })
        #expect(store.calls.last == .releasePhotoSlot(Fixtures.fixedID))
        await #expect(throws: ExternalServiceError.self) {
            try await Self.useCase(store, media: nil).addPhoto(customerID: Self.author, reviewID: Fixtures.id(702), file: Self.jpeg)
        }
    }

    @Test func concurrentUploadsFillingTheReviewAreRefusedBeforeUploading() async throws {
        let store = MockReviewStore {
            $0.review = { _ in Self.review(photos: 4) }
            $0.reservePhotoSlot = { _, _, _, _ in false }
        }
        let media = MockMediaStorage { $0.upload = { _, name, _ in name } }
        await #expect(throws: ReviewError.tooManyPhotos(limit: 5)) {
            try await Self.useCase(store, media: media).addPhoto(customerID: Self.author, reviewID: Fixtures.id(702), file: Self.jpeg)
        }
        #expect(media.calls.isEmpty, "nothing reached the media API")
    }

    @Test func formatsAreRecognisedByTheirSignatures() {
        #expect(PhotoFormat.sniff([0xFF, 0xD8, 0xFF, 0xDB]) == .jpeg)
        #expect(PhotoFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .png)
        #expect(PhotoFormat.sniff(Array("GIF89a..".utf8)) == .gif)
        #expect(PhotoFormat.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        #expect(PhotoFormat.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8)) == nil)
        #expect(PhotoFormat.sniff(Array("<?php".utf8)) == nil)
        #expect(PhotoFormat.sniff([0xFF, 0xD8]) == nil)
    }
}
